import { audit, caseAuditTrail } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { forTenant } from '../../../platform/service-context.js';
import { staffIdentities } from '../../../staff/index.js';
import { tierRecord } from '../../kyc/index.js';
import { screeningStatus } from '../../sanctions/index.js';
import * as store from '../aml.cases.store.js';
import { eventsByTransaction } from '../aml.store.js';
import { staffCaseView } from './staff-cases.js';

/** Bumped when the pack's shape changes, so a filed pack says how to read it. */
export const SAR_PACK_VERSION = 'sar-pack/1.0';

/**
 * Everything the MLRO needs to file a suspicious activity report for a case escalated for one, as one file: the
 * case, its rules with their descriptions, the transactions, the player's KYC tier and sanctions screening status,
 * and every staff decision with who took it. Staff only (tipping-off): it exists only on the back office. Each
 * download is audited; the pack's decisions leave the downloads out.
 */
export async function sarPack(ctx: ServiceContext, caseId: string) {
  const found = await store.findCase(ctx.db, caseId);
  if (!found) throw new AppError('case_not_found', `No AML case ${caseId}`);
  if (found.status !== 'escalated') {
    throw new AppError(
      'case_not_escalated',
      `AML case ${caseId} is ${found.status}: a SAR pack is made only for a case escalated for a SAR`,
    );
  }
  const tenantCtx = forTenant(ctx, found.tenant_id) as ServiceContext & { tenantId: string };
  const [transactions, kyc, screening, trail] = await Promise.all([
    eventsByTransaction(ctx.db, found.tenant_id, found.transaction_ids),
    tierRecord(tenantCtx, found.user_id),
    screeningStatus(tenantCtx, found.user_id).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'screen_not_found') return null;
      throw error;
    }),
    caseAuditTrail(ctx.db, found.tenant_id, caseId).then((entries) =>
      entries.filter((e) => e.action !== 'aml.sar_pack_downloaded'),
    ),
  ]);
  // Every decision, proposal and approval is an entry of its own, so its actor names each person involved.
  const people = await staffIdentities(
    ctx.db,
    trail.map((e) => e.actor),
  );
  const who = (actor: string) => {
    const member = people.get(actor);
    return member
      ? { actor, display_name: member.display_name, email: member.email, role: member.role }
      : { actor, display_name: null, email: null, role: null };
  };
  const { context: _context, ...view } = staffCaseView(found, ctx.clock.now());
  // Who took the file, and when: it names the player and the staff, so its every download is on the record.
  await audit(ctx.db, tenantCtx, 'aml.sar_pack_downloaded', { case_id: caseId });
  return {
    pack_version: SAR_PACK_VERSION,
    generated_at: ctx.clock.now().toISOString(),
    case: { ...view, findings: found.context },
    transactions,
    kyc: { verified_tier: kyc.verified_tier, verified_at: kyc.verified_at },
    screening: screening
      ? {
          status: screening.status,
          match_count: screening.match_count,
          highest_match_score: screening.highest_match_score,
          sanctions_case_id: screening.case_id,
          checked_at: screening.checked_at,
        }
      : { status: 'not_screened' },
    decisions: trail.map((entry) => ({
      at: entry.occurred_at,
      action: entry.action,
      by: who(entry.actor),
      details: entry.details,
    })),
  };
}
