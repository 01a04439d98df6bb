import type { Transaction } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import type { DB } from '../../../platform/db/schema.js';
import { cancelJob } from '../../../platform/scheduler.js';
import { LONGEST_WINDOW_SECONDS } from '../limits.rules.js';
import {
  DEFAULT_REALITY_CHECK_SECONDS,
  playFreedAt,
  SESSION_COUNTING_BOUND_SECONDS,
  sessionEndsAt,
  type Played,
  type PlayTimeLimit,
} from '../sessions/play-time.js';
import { LIMIT_REACHED_JOB, scheduleLimitReached } from '../sessions/sessions.jobs.js';
import {
  countedSessions,
  playerInterval,
  playTimeLimitsInForce,
  runningSessions,
  setEndsAt,
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
 * A change to the player's play_time limits in force (set, decreased, or an increase gone live), or the end of one
 * of their sessions, applies to the sessions still running, not only to the next: each one's ends_at is computed
 * again from its start under the limits now in force and the other sessions as they now count, and its
 * play_session.limit_reached moved with it (due at once when the new limit has already been played through). The
 * caller holds the player's limits lock (taken before any job or session row: the one lock order).
 */
export async function replanRunningSessions(
  tx: Transaction<DB>,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<void> {
  const running = await runningSessions(tx, tenantId, userId, now);
  if (running.length === 0) return;
  const { limits, played } = await playTimeState(tx, tenantId, userId, now);
  for (const row of running) {
    const start = row.started_at.getTime();
    // Every other counted session; this one is the session being planned.
    const others = [...played];
    others.splice(
      others.findIndex((s) => s.start === start && s.stop === row.counted_until.getTime()),
      1,
    );
    const end = sessionEndsAt(limits, others, start);
    const endsAt = end === null ? null : new Date(Math.max(end.at, now.getTime()));
    if (endsAt?.getTime() === row.ends_at?.getTime() && end?.limit_type === row.limit_type) continue;
    // Job first, then the row: the scheduler's lock order.
    if (endsAt === null) await cancelJob(tx, LIMIT_REACHED_JOB, row.play_session_id);
    else await scheduleLimitReached(tx, { ...row, ends_at: endsAt });
    await setEndsAt(tx, row, endsAt, end?.limit_type ?? null);
  }
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
