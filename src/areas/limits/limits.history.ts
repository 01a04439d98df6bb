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
 * The changes a player's limits went through, newest first, read from the rows (each row is one request): its
 * receipt is a first limit, a decrease or an increase requested; an increase not cancelled is activated at
 * effective_from once that has come; a cancelled increase ends at ended_at. A limit superseded is no change of its
 * own: the decrease or activation that replaced it is.
 */
export function limitChanges(limits: readonly LimitHistoryEntry[], now: Date): LimitChange[] {
  const changes: LimitChange[] = [];
  for (const limit of limits) {
    const requested: LimitChangeKind =
      limit.previous_amount === null ? 'created' : limit.is_increase ? 'increase_requested' : 'decreased';
    changes.push({ at: limit.created_at, change: requested, limit });
    if (limit.status === 'cancelled' && limit.ended_at) {
      changes.push({ at: limit.ended_at, change: 'cancelled', limit });
    } else if (limit.is_increase && limit.effective_from <= now) {
      changes.push({ at: limit.effective_from, change: 'activated', limit });
    }
  }
  // Newest first. At one instant, the later of two steps first: a decrease after the cancellation it causes, a
  // cancellation after its request (a DELETE at once), a request after the activation its change judged against.
  const order: LimitChangeKind[] = ['decreased', 'created', 'cancelled', 'increase_requested', 'activated'];
  return changes.sort(
    (a, b) => b.at.getTime() - a.at.getTime() || order.indexOf(a.change) - order.indexOf(b.change),
  );
}
