import type { Transaction } from 'kysely';
import type { Platform, TenantContext } from '../../platform/context.js';
import type { DB } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { requestFingerprint } from '../../platform/idempotency.js';
import { emitEvent } from '../../platform/outbox.js';
import { cancelJob, scheduleJob } from '../../platform/scheduler.js';
import { increaseCooloffSeconds, MINIMUM_LIMIT_CENTS, type LimitType } from './limits.rules.js';
import type { SetLimitRequest } from './limits.schemas.js';
import {
  findLimit,
  findOpenLimits,
  lockLimit,
  openLimitsOfUser,
  userCurrency,
  windowStates,
} from './limits.store.js';
import type { DepositLimit } from './limits.tables.js';

export const ACTIVATE_JOB = 'limit.activate';

/** The event data of every limit event: the record as the tenant knows it. */
const limitEventData = (limit: DepositLimit) => ({
  limit_id: limit.limit_id,
  user_id: limit.user_id,
  limit_type: limit.limit_type,
  amount_cents: limit.amount_cents,
  currency: limit.currency,
  previous_limit_cents: limit.current_limit_cents,
  effective_from: limit.effective_from.toISOString(),
  status: limit.status,
});

export async function assertUserCurrency(
  db: Transaction<DB>,
  ctx: TenantContext,
  userId: string,
  currency: string,
) {
  const existing = await userCurrency(db, ctx.tenant.tenant_id, userId);
  if (existing && existing !== currency) {
    throw new AppError(
      'currency_mismatch',
      422,
      `This user's limits and deposits are kept in ${existing}; ${currency} cannot be mixed with them`,
    );
  }
}

async function endLimit(tx: Transaction<DB>, limitId: string, status: 'superseded' | 'cancelled', now: Date) {
  return tx
    .updateTable('deposit_limits')
    .set({ status, ended_at: now })
    .where('limit_id', '=', limitId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Sets, lowers or raises a limit. First-time sets and decreases apply at once (a player lowering a limit must
 * never wait, so a decrease also cancels a pending increase); an increase waits out its cooling-off as `pending`.
 */
export async function setLimit(
  platform: Platform,
  ctx: TenantContext,
  input: SetLimitRequest,
): Promise<{ limit: DepositLimit; created: boolean }> {
  if (input.amount_cents < MINIMUM_LIMIT_CENTS) {
    throw new AppError(
      'below_minimum',
      422,
      `A deposit limit must be at least ${MINIMUM_LIMIT_CENTS} minor units`,
    );
  }
  const tenantId = ctx.tenant.tenant_id;
  const requestHash = requestFingerprint({ amount_cents: input.amount_cents, currency: input.currency });

  return platform.db.transaction().execute(async (tx) => {
    await lockLimit(tx, tenantId, input.user_id, input.limit_type);
    await assertUserCurrency(tx, ctx, input.user_id, input.currency);
    const now = platform.clock.now();
    const { active, pending } = await findOpenLimits(tx, tenantId, input.user_id, input.limit_type);

    if (pending && pending.request_hash === requestHash) return { limit: pending, created: false };
    // Asking again for the limit already in force changes nothing.
    if (active && !pending && active.amount_cents === input.amount_cents)
      return { limit: active, created: false };

    const isIncrease = active !== undefined && input.amount_cents > active.amount_cents;
    if (pending && (isIncrease || active?.amount_cents === input.amount_cents)) {
      throw new AppError(
        'pending_change_exists',
        409,
        `An increase of this ${input.limit_type} is cooling off until ${pending.effective_from.toISOString()}; cancel it first`,
      );
    }

    const cooloffSeconds = isIncrease ? increaseCooloffSeconds(active.amount_cents, input.amount_cents) : 0;
    // A decrease replaces the limit in force at once; the old row leaves 'active' before the new one enters.
    if (active && !isIncrease) await endLimit(tx, active.limit_id, 'superseded', now);
    const stored = await tx
      .insertInto('deposit_limits')
      .values({
        limit_id: newId('limit'),
        tenant_id: tenantId,
        user_id: input.user_id,
        limit_type: input.limit_type,
        amount_cents: input.amount_cents,
        currency: input.currency,
        current_limit_cents: active?.amount_cents ?? null,
        is_increase: isIncrease,
        cooloff_seconds: cooloffSeconds,
        requested_at: new Date(input.requested_at),
        created_at: now,
        effective_from: new Date(now.getTime() + cooloffSeconds * 1000),
        status: isIncrease ? 'pending' : 'active',
        request_hash: requestHash,
      })
      .returningAll()
      .executeTakeFirstOrThrow();

    if (isIncrease) {
      await scheduleJob(tx, {
        kind: ACTIVATE_JOB,
        subjectId: stored.limit_id,
        tenantId,
        dueAt: stored.effective_from,
      });
    } else {
      if (pending) {
        const cancelled = await endLimit(tx, pending.limit_id, 'cancelled', now);
        await cancelJob(tx, ACTIVATE_JOB, pending.limit_id);
        await emitEvent(tx, {
          tenantIds: tenantId,
          event: 'limit.cancelled',
          data: limitEventData(cancelled),
          at: now,
        });
      }
      const event = active ? 'limit.decreased' : 'limit.created';
      await emitEvent(tx, { tenantIds: tenantId, event, data: limitEventData(stored), at: now });
    }
    return { limit: stored, created: true };
  });
}

/** Cancels a pending increase; the limit in force stays as it is. */
export async function cancelLimit(
  platform: Platform,
  ctx: TenantContext,
  limitId: string,
): Promise<DepositLimit> {
  return platform.db.transaction().execute(async (tx) => {
    const found = await findLimit(tx, ctx.tenant.tenant_id, limitId);
    if (!found) throw new AppError('limit_not_found', 404, `No limit ${limitId}`);
    await lockLimit(tx, found.tenant_id, found.user_id, found.limit_type);
    const limit = (await findLimit(tx, ctx.tenant.tenant_id, limitId))!;
    if (limit.status !== 'pending') {
      throw new AppError(
        'limit_not_pending',
        409,
        `Only a pending increase can be cancelled; this limit is ${limit.status}`,
      );
    }
    const now = platform.clock.now();
    const cancelled = await endLimit(tx, limitId, 'cancelled', now);
    await cancelJob(tx, ACTIVATE_JOB, limitId);
    await emitEvent(tx, {
      tenantIds: limit.tenant_id,
      event: 'limit.cancelled',
      data: limitEventData(cancelled),
      at: now,
    });
    return cancelled;
  });
}

/** Scheduled at effective_from: the increase goes live and the limit it replaces is superseded. */
export function registerLimitJobs(platform: Platform): void {
  platform.scheduler.register(ACTIVATE_JOB, async (tx, job, now) => {
    const pending = await tx
      .selectFrom('deposit_limits')
      .selectAll()
      .where('limit_id', '=', job.subject_id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!pending) return;
    await lockLimit(tx, pending.tenant_id, pending.user_id, pending.limit_type);
    await tx
      .updateTable('deposit_limits')
      .set({ status: 'superseded', ended_at: now })
      .where('tenant_id', '=', pending.tenant_id)
      .where('user_id', '=', pending.user_id)
      .where('limit_type', '=', pending.limit_type)
      .where('status', '=', 'active')
      .execute();
    const activated = await tx
      .updateTable('deposit_limits')
      .set({ status: 'active' })
      .where('limit_id', '=', pending.limit_id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await emitEvent(tx, {
      tenantIds: pending.tenant_id,
      event: 'limit.activated',
      data: limitEventData(activated),
      at: now,
    });
  });
}

export async function listLimits(platform: Platform, ctx: TenantContext, userId: string) {
  const now = platform.clock.now();
  const [open, windows] = await Promise.all([
    openLimitsOfUser(platform.db, ctx.tenant.tenant_id, userId),
    windowStates(platform.db, { tenantId: ctx.tenant.tenant_id, userId, amountCents: 0, now }),
  ]);
  const pendingOf = (type: LimitType) =>
    open.find((l) => l.limit_type === type && l.status === 'pending') ?? null;
  return windows.map((w) => {
    const active = open.find((l) => l.limit_id === w.limit_id)!;
    return {
      ...active,
      spent_cents: w.spent_cents,
      remaining_cents: Math.max(0, w.limit_cents - w.spent_cents),
      next_reset_at: w.oldest_leaves_at,
      pending_change: pendingOf(w.limit_type),
    };
  });
}
