import { audit } from '../../../platform/audit.js';
import type { ServiceContext, TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { isOpen } from '../kyc.rules.js';
import type { ManualReviewRequest } from '../kyc.schemas.js';
import { findCheck, findCheckById, lockUser } from '../kyc.store.js';
import { alreadyFinal } from './errors.js';
import { approveCheck, rejectCheck } from './transitions.js';
import { statusView } from './views.js';

const notFound = (checkId: string) => new AppError('kyc_check_not_found', `No KYC check ${checkId}`);

/** Admin keys only (the route's preHandler): approve or reject a check that is not final, with a reason. */
export function manualReview(ctx: TenantContext, input: ManualReviewRequest) {
  return decideCheck(ctx, ctx.tenantId, input, `key:${ctx.keyPrefix}`);
}

/** The service's staff decide a check from the review queue: the same decision as a tenant admin's, by a staff id. */
export async function staffManualReview(
  ctx: ServiceContext,
  checkId: string,
  input: Pick<ManualReviewRequest, 'decision' | 'reason'>,
) {
  const found = await findCheckById(ctx.db, checkId);
  if (!found) throw notFound(checkId);
  const tenantCtx = forTenant(ctx, found.tenant_id);
  return decideCheck(tenantCtx, found.tenant_id, { ...input, kyc_check_id: checkId }, `staff:${ctx.actor}`);
}

async function decideCheck(ctx: ServiceContext, tenantId: string, input: ManualReviewRequest, by: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await findCheck(tx, tenantId, input.kyc_check_id);
    if (!found) throw notFound(input.kyc_check_id);
    await lockUser(tx, tenantId, found.user_id);
    const check = (await findCheck(tx, tenantId, input.kyc_check_id))!;
    if (!isOpen(check.status)) throw alreadyFinal(check);
    const now = ctx.clock.now();
    const decision = { by, reason: input.reason };
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
