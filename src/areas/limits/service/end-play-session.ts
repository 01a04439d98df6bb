import type { TenantScopedContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { cancelJob } from '../../../platform/scheduler.js';
import { withTransaction } from '../../../platform/service-context.js';
import { lockUser } from '../limits.store.js';
import type { PlaySession as PlaySessionRow } from '../limits.tables.js';
import { LIMIT_REACHED_JOB } from '../sessions/sessions.jobs.js';
import { toPlaySession } from '../sessions/sessions.records.js';
import type { PlaySession } from '../sessions/sessions.schemas.js';
import { findSession, markEnded } from '../sessions/sessions.store.js';
import { replanRunningSessions } from './play-time.js';
import { playActivity } from '../../safer-gambling/index.js';

export const sessionNotFound = (sessionId: string) =>
  new AppError('play_session_not_found', `No play session ${sessionId}`);

/** An ended session answers the same end again; another end time is 409, the first end stands. */
function endedAlready(row: PlaySessionRow, endedAt: Date, now: Date): PlaySession {
  if (row.ended_at!.getTime() !== endedAt.getTime()) {
    throw new AppError(
      'session_already_ended',
      `Play session ${row.session_id} ended at ${row.ended_at!.toISOString()}`,
    );
  }
  return toPlaySession(row, now);
}

/**
 * Ends a session at the operator's ended_at: its played time counts up to then (and never past its counting bound).
 * An end before ends_at cancels play_session.limit_reached; one at or after it leaves the event due. The player's
 * other running sessions are planned again without it. Idempotent.
 */
export async function endPlaySession(
  ctx: TenantScopedContext,
  sessionId: string,
  input: { ended_at: string },
): Promise<PlaySession> {
  const { tenantId } = ctx;
  const endedAt = new Date(input.ended_at);
  return withTransaction(ctx, async (tx, ctx) => {
    const now = ctx.clock.now();
    const row = await findSession(tx, tenantId, sessionId);
    if (!row) throw sessionNotFound(sessionId);
    if (row.ended_at) return endedAlready(row, endedAt, now);
    if (endedAt < row.started_at) {
      throw new AppError(
        'ended_before_start',
        `ended_at ${endedAt.toISOString()} is before the session's started_at ${row.started_at.toISOString()}`,
      );
    }
    // The player's lock, then the job, then the row: the one lock order (a running job is waited for, not
    // deadlocked with).
    await lockUser(tx, tenantId, row.user_id);
    if (row.ends_at && endedAt < row.ends_at) await cancelJob(tx, LIMIT_REACHED_JOB, row.play_session_id);
    const ended = await markEnded(tx, tenantId, sessionId, endedAt);
    // A concurrent end won: answer as a repeat of it.
    if (!ended) return endedAlready((await findSession(tx, tenantId, sessionId))!, endedAt, now);
    // The player's other sessions counted this one as running on to its bound: their ends_at may move later.
    await replanRunningSessions(tx, tenantId, row.user_id, now);
    if (ended.allowed)
      await playActivity(tx, { tenantId, userId: row.user_id, source: ended.play_session_id, at: now });
    return toPlaySession(ended, now);
  });
}
