import type { TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { requestFingerprint } from '../../../platform/idempotency.js';
import { newId } from '../../../platform/ids.js';
import { cancelJob, scheduleJob } from '../../../platform/scheduler.js';
import { withTransaction } from '../../../platform/service-context.js';
import { emitLimitEvent } from '../limits.events.js';
import { markerActivity } from '../../safer-gambling/index.js';
import {
  increaseCooloffSeconds,
  MINIMUM_LIMIT_CENTS,
  MINIMUM_LIMIT_SECONDS,
  takesLimitType,
  type LimitKind,
} from '../limits.rules.js';
import type { SetLimitRequest } from '../limits.schemas.js';
import { findOpenLimits, insertLimit, setStatus } from '../limits.store.js';
import type { DepositLimit } from '../limits.tables.js';
import { ACTIVATE_JOB, activateIfDue, lockForChange } from './activation.js';
import { assertUserCurrency } from './currency.js';
import { replanRunningSessions } from './play-time.js';

/** The limit's kind and amount from the request: a money kind in cents of a currency, play_time in seconds. */
function requestedAmount(input: SetLimitRequest): {
  kind: LimitKind;
  amount: number;
  currency: string | null;
} {
  const kind = input.limit_kind ?? 'deposit';
  if (!takesLimitType(kind, input.limit_type)) {
    throw new AppError('unsupported_type', `A ${kind} limit has no ${input.limit_type}`);
  }
  if (kind === 'play_time') {
    if (input.amount_cents !== undefined || input.currency !== undefined) {
      throw new AppError(
        'invalid_request',
        'A play_time limit takes amount_seconds, no amount_cents or currency',
      );
    }
    if (input.amount_seconds === undefined) {
      throw new AppError('invalid_amount', 'A play_time limit needs amount_seconds');
    }
    if (input.amount_seconds < MINIMUM_LIMIT_SECONDS) {
      throw new AppError(
        'below_minimum',
        `A play_time limit must be at least ${MINIMUM_LIMIT_SECONDS} seconds`,
      );
    }
    return { kind, amount: input.amount_seconds, currency: null };
  }
  if (input.amount_seconds !== undefined) {
    throw new AppError(
      'invalid_request',
      `A ${kind} limit takes amount_cents and currency, no amount_seconds`,
    );
  }
  if (input.amount_cents === undefined)
    throw new AppError('invalid_amount', `A ${kind} limit needs amount_cents`);
  if (input.currency === undefined) throw new AppError('invalid_request', `A ${kind} limit needs a currency`);
  if (input.amount_cents < MINIMUM_LIMIT_CENTS) {
    throw new AppError(
      'below_minimum',
      `A ${kind} limit must be at least ${MINIMUM_LIMIT_CENTS} minor units`,
    );
  }
  return { kind, amount: input.amount_cents, currency: input.currency };
}

/**
 * Sets, lowers or raises a limit of any kind. First-time sets and decreases apply at once (a player lowering a limit must
 * never wait, so a decrease also cancels a pending increase); an increase waits out its cooling-off as `pending`.
 * Idempotent while an increase is pending: the same amount returns it (200), another increase is 409.
 */
export async function setLimit(
  ctx: TenantContext,
  input: SetLimitRequest,
): Promise<{ limit: DepositLimit; created: boolean }> {
  const { kind, amount, currency } = requestedAmount(input);
  const tenantId = ctx.tenant.tenant_id;
  // A deposit limit's fingerprint is as it always was; the other kinds name theirs.
  const requestHash = requestFingerprint(
    kind === 'deposit' ? { amount_cents: amount, currency } : { limit_kind: kind, amount, currency },
  );

  return withTransaction(ctx, async (tx, ctx) => {
    await lockForChange(tx, tenantId, input.user_id);
    if (currency !== null) await assertUserCurrency(tx, tenantId, input.user_id, currency);
    const now = ctx.clock.now();
    const open = await findOpenLimits(tx, tenantId, input.user_id, kind, input.limit_type, now);
    const { active, pending } = await activateIfDue(tx, open, now);

    if (pending && pending.request_hash === requestHash) return { limit: pending, created: false };
    // Asking again for the limit already in force changes nothing.
    if (active && !pending && Number(active.amount_cents) === amount)
      return { limit: active, created: false };

    const current = active === undefined ? undefined : Number(active.amount_cents);
    const isIncrease = current !== undefined && amount > current;
    if (pending && !(current !== undefined && amount < current)) {
      throw new AppError(
        'pending_change_exists',
        `An increase of this ${input.limit_type} is cooling off until ${pending.effective_from.toISOString()}; cancel it first`,
      );
    }

    const cooloffSeconds = isIncrease ? increaseCooloffSeconds(current, amount) : 0;
    // A decrease replaces the limit in force at once; the old row leaves 'active' before the new one enters.
    if (active && !isIncrease) await setStatus(tx, tenantId, active.limit_id, 'superseded', now);
    const stored = await insertLimit(tx, {
      limit_id: newId('limit'),
      tenant_id: tenantId,
      user_id: input.user_id,
      limit_kind: kind,
      limit_type: input.limit_type,
      amount_cents: amount,
      currency,
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
      // A requested increase is a marker of harm's input (SG-005), evaluated as stored work, not here.
      await markerActivity(tx, { tenantId, userId: input.user_id, source: stored.limit_id, at: now });
      return { limit: stored, created: true };
    }
    if (pending) {
      const cancelled = await setStatus(tx, tenantId, pending.limit_id, 'cancelled', now);
      await cancelJob(tx, ACTIVATE_JOB, pending.limit_id);
      await emitLimitEvent(tx, 'limit.cancelled', cancelled, now);
    }
    await emitLimitEvent(tx, active ? 'limit.decreased' : 'limit.created', stored, now);
    if (kind === 'play_time') await replanRunningSessions(tx, tenantId, input.user_id, now);
    return { limit: stored, created: true };
  });
}
