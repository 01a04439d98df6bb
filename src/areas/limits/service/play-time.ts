import type { Executor } from '../../../platform/db/database.js';
import { LONGEST_WINDOW_SECONDS } from '../limits.rules.js';
import {
  DEFAULT_REALITY_CHECK_SECONDS,
  playFreedAt,
  SESSION_COUNTING_BOUND_SECONDS,
  type Played,
  type PlayTimeLimit,
} from '../sessions/play-time.js';
import {
  countedSessions,
  playerInterval,
  playTimeLimitsInForce,
  tenantDefaultInterval,
} from '../sessions/sessions.store.js';

/**
 * A player's play_time limits in force at `now` and the sessions any window ending from now on may count (each up
 * to where it stops counting: an open one runs on to its bound).
 */
export async function playTimeState(
  db: Executor,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<{ limits: PlayTimeLimit[]; played: Played[] }> {
  const limits = await playTimeLimitsInForce(db, tenantId, userId, now);
  if (limits.length === 0) return { limits, played: [] };
  const since = new Date(now.getTime() - (LONGEST_WINDOW_SECONDS + SESSION_COUNTING_BOUND_SECONDS) * 1000);
  return { limits, played: await countedSessions(db, tenantId, userId, since) };
}

/**
 * The play_time restriction of a player now, for the player status call: a daily, weekly or monthly play_time limit
 * with less than a second left, and when the player may play again (counting what was played so far, nothing more).
 */
export async function playTimeRestriction(
  db: Executor,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<{ until: string } | null> {
  const { limits, played } = await playTimeState(db, tenantId, userId, now);
  const until = playFreedAt(limits, played, now.getTime());
  return until === null ? null : { until: new Date(until).toISOString() };
}

/** The player's reality-check interval in force: their own, else the tenant's default, else the service's. */
export async function realityCheckIntervalOf(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<number> {
  return (
    (await playerInterval(db, tenantId, userId)) ??
    (await tenantDefaultInterval(db, tenantId)) ??
    DEFAULT_REALITY_CHECK_SECONDS
  );
}
