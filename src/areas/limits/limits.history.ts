import type { LimitKind, LimitType } from './limits.rules.js';
import type { LimitStatus } from './limits.tables.js';

/** One of a player's limits as the staff read it: amounts in minor units of `currency`, or seconds for play_time. */
export interface LimitHistoryEntry {
  limit_id: string;
  limit_kind: LimitKind;
  limit_type: LimitType;
  amount: number;
  /** The limit in force when this one was asked for; null for a first limit of its kind and type. */
  previous_amount: number | null;
  /** Null for play_time, whose amounts are seconds. */
  currency: string | null;
  is_increase: boolean;
  cooloff_seconds: number;
  created_at: Date;
  effective_from: Date;
  ended_at: Date | null;
  /** At the time asked: an increase whose cool-off has elapsed is active, the limit it replaced superseded. */
  status: LimitStatus;
}

/** created, decreased, activated and cancelled are announced by limit.* events; an increase requested by none. */
export type LimitChangeKind = 'created' | 'decreased' | 'increase_requested' | 'activated' | 'cancelled';

export interface LimitChange {
  at: Date;
  change: LimitChangeKind;
  limit: LimitHistoryEntry;
}

/**
 * The changes a player's limits went through, newest first, read from the rows (each row is one request, `limits`
 * newest first): its receipt is a first limit, a decrease or an increase requested; an increase not cancelled is
 * activated at effective_from once that has come; a cancelled increase ends at ended_at. A limit superseded is no
 * change of its own: the decrease or activation that replaced it is.
 */
export function limitChanges(limits: readonly LimitHistoryEntry[], now: Date): LimitChange[] {
  const changes: (LimitChange & { row: number; step: number })[] = [];
  limits.forEach((limit, row) => {
    const requested: LimitChangeKind =
      limit.previous_amount === null ? 'created' : limit.is_increase ? 'increase_requested' : 'decreased';
    changes.push({ at: limit.created_at, change: requested, limit, row, step: 0 });
    if (limit.status === 'cancelled' && limit.ended_at) {
      changes.push({ at: limit.ended_at, change: 'cancelled', limit, row, step: 1 });
    } else if (limit.is_increase && limit.effective_from <= now) {
      changes.push({ at: limit.effective_from, change: 'activated', limit, row, step: 1 });
    }
  });
  // At one instant: of two limits, the newer row's change first (a decrease before the cancellation it caused); of
  // one limit, its later step first (a DELETE at once, after the request).
  return changes
    .sort((a, b) => b.at.getTime() - a.at.getTime() || a.row - b.row || b.step - a.step)
    .map(({ at, change, limit }) => ({ at, change, limit }));
}
