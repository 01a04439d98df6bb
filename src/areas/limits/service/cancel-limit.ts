import type { TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { cancelJob } from '../../../platform/scheduler.js';
import { withTransaction } from '../../../platform/service-context.js';
import { emitLimitEvent } from '../limits.events.js';
import { findLimit, findOpenLimits, setStatus } from '../limits.store.js';
import type { DepositLimit } from '../limits.tables.js';
import { ACTIVATE_JOB, activateIfDue, lockForChange } from './activation.js';

/** Cancels a pending increase; the limit in force stays as it is. Anything not pending is 409 limit_not_pending. */
export async function cancelLimit(ctx: TenantContext, limitId: string): Promise<DepositLimit> {
  const tenantId = ctx.tenant.tenant_id;
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await findLimit(tx, tenantId, limitId);
    if (!found) throw new AppError('limit_not_found', `No limit ${limitId}`);
    await lockForChange(tx, tenantId, found.user_id);
    const now = ctx.clock.now();
    const open = await findOpenLimits(tx, tenantId, found.user_id, found.limit_kind, found.limit_type, now);
    // An increase whose cool-off has elapsed is live, even if its job has not run yet: too late to cancel.
    const { pending } = await activateIfDue(tx, open, now);
    if (pending?.limit_id !== limitId) {
      const limit = (await findLimit(tx, tenantId, limitId))!;
      throw new AppError(
        'limit_not_pending',
        `Only a pending increase can be cancelled; this limit is ${limit.status}`,
      );
    }
    const cancelled = await setStatus(tx, tenantId, limitId, 'cancelled', now);
    await cancelJob(tx, ACTIVATE_JOB, limitId);
    await emitLimitEvent(tx, 'limit.cancelled', cancelled, now);
    return cancelled;
  });
}
