import { recordAudit } from '../../../platform/audit.js';
import type { Platform, TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { isOpen } from '../kyc.rules.js';
import type { ManualReviewRequest } from '../kyc.schemas.js';
import { findCheck, lockUser } from '../kyc.store.js';
import { alreadyFinal } from './errors.js';
import { approveCheck, rejectCheck } from './transitions.js';
import { statusView } from './views.js';

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
