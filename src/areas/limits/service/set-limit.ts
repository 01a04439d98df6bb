import type { TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { requestFingerprint } from '../../../platform/idempotency.js';
import { newId } from '../../../platform/ids.js';
import { cancelJob, scheduleJob } from '../../../platform/scheduler.js';
import { withTransaction } from '../../../platform/service-context.js';
import { emitLimitEvent } from '../limits.events.js';
import { increaseCooloffSeconds, MINIMUM_LIMIT_CENTS } from '../limits.rules.js';
import type { SetLimitRequest } from '../limits.schemas.js';
import { findOpenLimits, insertLimit, setStatus } from '../limits.store.js';
import type { DepositLimit } from '../limits.tables.js';
import { ACTIVATE_JOB, activateIfDue, lockForChange } from './activation.js';
import { assertUserCurrency } from './currency.js';

/**
 * Sets, lowers or raises a limit. First-time sets and decreases apply at once (a player lowering a limit must
 * never wait, so a decrease also cancels a pending increase); an increase waits out its cooling-off as `pending`.
 * Idempotent while an increase is pending: the same amount returns it (200), another increase is 409.
 */
export async function setLimit(
  ctx: TenantContext,
  input: SetLimitRequest,
): Promise<{ limit: DepositLimit; created: boolean }> {
  if (input.amount_cents < MINIMUM_LIMIT_CENTS) {
    throw new AppError(
      'below_minimum',
      `A deposit limit must be at least ${MINIMUM_LIMIT_CENTS} minor units`,
    );
  }
  const tenantId = ctx.tenant.tenant_id;
  const requestHash = requestFingerprint({ amount_cents: input.amount_cents, currency: input.currency });

  return withTransaction(ctx, async (tx, ctx) => {
    await lockForChange(tx, tenantId, input.user_id);
    await assertUserCurrency(tx, tenantId, input.user_id, input.currency);
    const now = ctx.clock.now();
    const open = await findOpenLimits(tx, tenantId, input.user_id, input.limit_type, now);
    const { active, pending } = await activateIfDue(tx, open, now);

    if (pending && pending.request_hash === requestHash) return { limit: pending, created: false };
    // Asking again for the limit already in force changes nothing.
    if (active && !pending && Number(active.amount_cents) === input.amount_cents)
      return { limit: active, created: false };

    const current = active === undefined ? undefined : Number(active.amount_cents);
    const isIncrease = current !== undefined && input.amount_cents > current;
    if (pending && !(current !== undefined && input.amount_cents < current)) {
      throw new AppError(
        'pending_change_exists',
        `An increase of this ${input.limit_type} is cooling off until ${pending.effective_from.toISOString()}; cancel it first`,
      );
    }

    const cooloffSeconds = isIncrease ? increaseCooloffSeconds(current, input.amount_cents) : 0;
    // A decrease replaces the limit in force at once; the old row leaves 'active' before the new one enters.
    if (active && !isIncrease) await setStatus(tx, tenantId, active.limit_id, 'superseded', now);
    const stored = await insertLimit(tx, {
      limit_id: newId('limit'),
      tenant_id: tenantId,
      user_id: input.user_id,
      limit_type: input.limit_type,
      amount_cents: input.amount_cents,
      currency: input.currency,
      current_limit_cents: current ?? null,
      is_increase: isIncrease,
      cooloff_seconds: cooloffSeconds,
      requested_at: new Date(input.requested_at),
      created_at: now,
      effective_from: new Date(now.getTime() + cooloffSeconds * 1000),
      status: isIncrease ? 'pending' : 'active',
      request_hash: requestHash,
    });

    if (isIncrease) {
      // No event while it cools off (the spec shows none); limit.activated announces it when it goes live.
      await scheduleJob(tx, {
        kind: ACTIVATE_JOB,
        subjectId: stored.limit_id,
        tenantId,
        dueAt: stored.effective_from,
      });
      return { limit: stored, created: true };
    }
    if (pending) {
      const cancelled = await setStatus(tx, tenantId, pending.limit_id, 'cancelled', now);
      await cancelJob(tx, ACTIVATE_JOB, pending.limit_id);
      await emitLimitEvent(tx, 'limit.cancelled', cancelled, now);
    }
    await emitLimitEvent(tx, active ? 'limit.decreased' : 'limit.created', stored, now);
    return { limit: stored, created: true };
  });
}
