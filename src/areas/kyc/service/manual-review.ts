import { audit } from '../../../platform/audit.js';
import type { TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { withTransaction } from '../../../platform/service-context.js';
import { isOpen } from '../kyc.rules.js';
import type { ManualReviewRequest } from '../kyc.schemas.js';
import { findCheck, lockUser } from '../kyc.store.js';
import { alreadyFinal } from './errors.js';
import { approveCheck, rejectCheck } from './transitions.js';
import { statusView } from './views.js';

/** Admin keys only (the route's preHandler): approve or reject a check that is not final, with a reason. */
export async function manualReview(ctx: TenantContext, input: ManualReviewRequest) {
  const tenantId = ctx.tenant.tenant_id;
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await findCheck(tx, tenantId, input.kyc_check_id);
    if (!found) throw new AppError('kyc_check_not_found', 404, `No KYC check ${input.kyc_check_id}`);
    await lockUser(tx, tenantId, found.user_id);
    const check = (await findCheck(tx, tenantId, input.kyc_check_id))!;
    if (!isOpen(check.status)) throw alreadyFinal(check);
    const now = ctx.clock.now();
    const decision = { by: `key:${ctx.keyPrefix}`, reason: input.reason };
    const decided =
      input.decision === 'approve'
        ? await approveCheck(tx, check, now, decision)
        : await rejectCheck(tx, check, now, decision);
    await audit(tx, ctx, 'kyc.manual_review', {
      kyc_check_id: check.kyc_check_id,
      decision: input.decision,
      reason: input.reason,
    });
    return statusView(decided);
  });
}
