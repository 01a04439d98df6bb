import type { Executor } from '../../../platform/db/database.js';
import { limitChanges, type LimitChange, type LimitHistoryEntry } from '../limits.history.js';
import { limitsOfUser } from '../limits.store.js';

/**
 * A player's limits of every kind and status, newest first (`max` at most, and how many in all), and the
 * changes they went through, for staff: what the player asked for, when, and what is in force or pending now.
 */
export async function limitHistory(
  db: Executor,
  tenantId: string,
  userId: string,
  now: Date,
  max: number,
): Promise<{ limits: LimitHistoryEntry[]; changes: LimitChange[]; total: number }> {
  const rows = await limitsOfUser(db, tenantId, userId, now, max);
  const limits = rows.map((row): LimitHistoryEntry => ({
    limit_id: row.limit_id,
    limit_kind: row.limit_kind,
    limit_type: row.limit_type,
    amount: Number(row.amount_cents),
    previous_amount: row.current_limit_cents === null ? null : Number(row.current_limit_cents),
    currency: row.currency,
    is_increase: row.is_increase,
    cooloff_seconds: row.cooloff_seconds,
    created_at: row.created_at,
    effective_from: row.effective_from,
    ended_at: row.ended_at,
    status: row.status,
  }));
  return { limits, changes: limitChanges(limits, now), total: Number(rows[0]?.total ?? 0) };
}
