import type { Transaction } from 'kysely';
import { recordAudit } from '../../platform/audit.js';
import type { Platform, TenantContext } from '../../platform/context.js';
import type { DB } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { isOpen } from './kyc.rules.js';
import type { ManualReviewRequest } from './kyc.schemas.js';
import { hashToken, statusView } from './kyc.service.js';
import { findCheck, findCheckByTokenHash, lockUser } from './kyc.store.js';
import type { KycCheck } from './kyc.tables.js';
import { approveCheck, markStarted, markSubmitted, recordActivity, rejectCheck } from './kyc.transitions.js';

const alreadyFinal = (check: KycCheck) =>
  new AppError('check_already_final', 409, `KYC check ${check.kyc_check_id} is already ${check.status}`);

/** Admin keys only (the route's preHandler): approve or reject a check that is not final, with a reason. */
export async function manualReview(platform: Platform, ctx: TenantContext, input: ManualReviewRequest) {
  const tenantId = ctx.tenant.tenant_id;
  return platform.db.transaction().execute(async (tx) => {
    const found = await findCheck(tx, tenantId, input.kyc_check_id);
    if (!found) throw new AppError('kyc_check_not_found', 404, `No KYC check ${input.kyc_check_id}`);
    await lockUser(tx, tenantId, found.user_id);
    const check = (await findCheck(tx, tenantId, input.kyc_check_id))!;
    if (!isOpen(check.status)) throw alreadyFinal(check);
    const now = platform.clock.now();
    const decision = { by: `key:${ctx.keyPrefix}`, reason: input.reason };
    const decided =
      input.decision === 'approve'
        ? await approveCheck(tx, check, now, decision)
        : await rejectCheck(tx, check, now, decision);
    await recordAudit(tx, {
      tenantId,
      actor: ctx.keyPrefix,
      action: 'kyc.manual_review',
      requestId: ctx.requestId,
      details: { kyc_check_id: check.kyc_check_id, decision: input.decision, reason: input.reason },
      at: now,
    });
    return statusView(decided);
  });
}

const notFound = () => new AppError('kyc_check_not_found', 404, 'Unknown or expired vendor access token');

/**
 * The check behind a sandbox vendor token, locked for a step of the flow. Unknown and expired tokens, and
 * checks of live tenants (whose users use the production vendor), look alike: 404.
 */
async function checkOfToken(tx: Transaction<DB>, platform: Platform, token: string): Promise<KycCheck> {
  const found = await findCheckByTokenHash(tx, hashToken(token));
  if (!found || found.vendor_token_expires_at <= platform.clock.now()) throw notFound();
  const tenant = await tx
    .selectFrom('tenants')
    .select('environment')
    .where('tenant_id', '=', found.tenant_id)
    .executeTakeFirstOrThrow();
  if (tenant.environment !== 'sandbox') throw notFound();
  await lockUser(tx, found.tenant_id, found.user_id);
  const check = (await findCheckByTokenHash(tx, hashToken(token))) ?? found;
  if (!isOpen(check.status)) throw alreadyFinal(check);
  return check;
}

const flowState = (check: KycCheck) => ({
  kyc_check_id: check.kyc_check_id,
  status: check.status,
  required_tier: check.required_tier,
  required_documents: check.required_documents,
});

/** The user opens the vendor flow: not_started → in_progress (kyc.started); again later changes nothing. */
export function beginVendorFlow(platform: Platform, token: string) {
  return platform.db.transaction().execute(async (tx) => {
    const check = await checkOfToken(tx, platform, token);
    const now = platform.clock.now();
    const next =
      check.status === 'not_started'
        ? await markStarted(tx, check, now)
        : await recordActivity(tx, check, now);
    return flowState(next);
  });
}

/** The user uploads the documents: in_progress → pending_review (kyc.submitted); then manual review decides. */
export function submitVendorFlow(platform: Platform, token: string) {
  return platform.db.transaction().execute(async (tx) => {
    const check = await checkOfToken(tx, platform, token);
    if (check.status === 'not_started') {
      throw new AppError('vendor_flow_not_begun', 409, 'Begin the vendor flow before submitting documents');
    }
    const now = platform.clock.now();
    const next =
      check.status === 'in_progress'
        ? await markSubmitted(platform, tx, check, now)
        : await recordActivity(tx, check, now);
    return flowState(next);
  });
}
