import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { emitEvent } from '../../platform/outbox.js';
import type { WindowType } from './limits.rules.js';
import type { DepositLimitRecord, KindLimitRecord, LimitRecord } from './limits.schemas.js';
import type { DepositLimit } from './limits.tables.js';

/**
 * Every event the limits area emits: the lifecycle events of a limit (emitLimitEvent), and limit.breach_attempt,
 * which the deposit check's statement writes in SQL, one per rejected check of a group (breachAttemptEventSql,
 * statements/limits-check.ts), and the wager check writes for a rejected stake (service/check-wager.ts); and
 * play_session.limit_reached, which a session's job sends at its ends_at (sessions/sessions.jobs.ts).
 */
export type LimitEvent = 'limit.created' | 'limit.decreased' | 'limit.activated' | 'limit.cancelled';
export { breachAttemptEventSql } from './statements/limits-check.js';

const cents = (value: number | null) => (value === null ? null : Number(value));

/** A deposit limit's record exactly as the spec has it: its responses and events carry nothing more. */
export function toRecord(limit: DepositLimit): DepositLimitRecord {
  return {
    limit_id: limit.limit_id,
    user_id: limit.user_id,
    limit_type: limit.limit_type as WindowType,
    amount_cents: Number(limit.amount_cents),
    currency: limit.currency!,
    current_limit_cents: cents(limit.current_limit_cents),
    is_increase: limit.is_increase,
    cooloff_seconds: limit.cooloff_seconds,
    effective_from: limit.effective_from.toISOString(),
    status: limit.status,
  };
}

/** A loss, wager or play_time limit: its kind named, play_time in seconds with no currency. */
export function toKindRecord(limit: DepositLimit): KindLimitRecord {
  const amounts =
    limit.limit_kind === 'play_time'
      ? {
          amount_seconds: Number(limit.amount_cents),
          current_limit_seconds: cents(limit.current_limit_cents),
        }
      : {
          amount_cents: Number(limit.amount_cents),
          currency: limit.currency!,
          current_limit_cents: cents(limit.current_limit_cents),
        };
  return {
    limit_id: limit.limit_id,
    user_id: limit.user_id,
    limit_kind: limit.limit_kind as KindLimitRecord['limit_kind'],
    limit_type: limit.limit_type,
    ...amounts,
    is_increase: limit.is_increase,
    cooloff_seconds: limit.cooloff_seconds,
    effective_from: limit.effective_from.toISOString(),
    status: limit.status,
  };
}

/** A limit of any kind: the spec's record for a deposit limit, the kind's record otherwise. */
export function toLimitRecord(limit: DepositLimit): LimitRecord {
  return limit.limit_kind === 'deposit' ? toRecord(limit) : toKindRecord(limit);
}

/** Limit events go to the tenant that owns the limit only, in the caller's transaction. */
export function emitLimitEvent(
  tx: Transaction<DB>,
  event: LimitEvent,
  limit: DepositLimit,
  at: Date,
): Promise<unknown> {
  return emitEvent(tx, { tenantIds: limit.tenant_id, event, data: { ...toLimitRecord(limit) }, at });
}
