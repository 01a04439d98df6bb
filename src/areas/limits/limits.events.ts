import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { emitEvent } from '../../platform/outbox.js';
import type { DepositLimitRecord } from './limits.schemas.js';
import type { DepositLimit } from './limits.tables.js';

/**
 * Every event the limits area emits: the lifecycle events of a limit (emitLimitEvent), and limit.breach_attempt,
 * which the check's statement writes in SQL, one per rejected check of a group (breachAttemptEventSql, statements/limits-check.ts).
 */
export type LimitEvent = 'limit.created' | 'limit.decreased' | 'limit.activated' | 'limit.cancelled';
export { breachAttemptEventSql } from './statements/limits-check.js';

/** The Deposit limit record as the API returns it: the response and every limit event's data share it. */
export function toRecord(limit: DepositLimit): DepositLimitRecord {
  return {
    limit_id: limit.limit_id,
    user_id: limit.user_id,
    limit_type: limit.limit_type,
    amount_cents: Number(limit.amount_cents),
    currency: limit.currency,
    current_limit_cents: limit.current_limit_cents === null ? null : Number(limit.current_limit_cents),
    is_increase: limit.is_increase,
    cooloff_seconds: limit.cooloff_seconds,
    effective_from: limit.effective_from.toISOString(),
    status: limit.status,
  };
}

/** Limit events go to the tenant that owns the limit only, in the caller's transaction. */
export function emitLimitEvent(
  tx: Transaction<DB>,
  event: LimitEvent,
  limit: DepositLimit,
  at: Date,
): Promise<unknown> {
  return emitEvent(tx, { tenantIds: limit.tenant_id, event, data: { ...toRecord(limit) }, at });
}
