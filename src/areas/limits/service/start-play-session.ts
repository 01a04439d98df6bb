import type { TenantScopedContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { newId } from '../../../platform/ids.js';
import { withTransaction } from '../../../platform/service-context.js';
import { activeOwnExclusion } from '../../exclusions/index.js';
import { activeTimeOut } from '../../time-outs/index.js';
import { playActivity } from '../../safer-gambling/index.js';
import { lockUser } from '../limits.store.js';
import type { PlaySession as PlaySessionRow } from '../limits.tables.js';
import {
  isExhausted,
  refusalReason,
  sessionEndsAt,
  SESSION_COUNTING_BOUND_SECONDS,
} from '../sessions/play-time.js';
import { scheduleLimitReached } from '../sessions/sessions.jobs.js';
import { toPlaySession } from '../sessions/sessions.records.js';
import type { PlaySession, StartPlaySessionRequest } from '../sessions/sessions.schemas.js';
import { findSession, insertSession } from '../sessions/sessions.store.js';
import { playTimeState, realityCheckIntervalOf } from './play-time.js';

/** The stored session answers a repeat; the same session_id for another player or start is 409. */
function repeatOf(row: PlaySessionRow, input: StartPlaySessionRequest, now: Date): PlaySession {
  if (row.user_id !== input.user_id || row.started_at.getTime() !== new Date(input.started_at).getTime()) {
    throw new AppError(
      'duplicate_session',
      `session_id ${input.session_id} is already a session of another player or start`,
    );
  }
  return toPlaySession(row, now);
}

/**
 * Starts a play session, judged at receipt: refused (stored, counting no time) under a self-exclusion of this
 * tenant, a time-out, or a daily, weekly or monthly play_time limit with less than a second left; else allowed, with
 * ends_at when the first play_time limit runs out (play_session.limit_reached is scheduled for then). Idempotent on
 * (tenant, session_id). The player's limits lock serialises the starts of one player, so two at once both count.
 */
export async function startPlaySession(
  ctx: TenantScopedContext,
  input: StartPlaySessionRequest,
): Promise<{ session: PlaySession; created: boolean }> {
  const { tenantId } = ctx;
  const userId = input.user_id;
  return withTransaction(ctx, async (tx, ctx) => {
    const now = ctx.clock.now();
    const existing = await findSession(tx, tenantId, input.session_id);
    if (existing) return { session: repeatOf(existing, input, now), created: false };
    await lockUser(tx, tenantId, userId);
    const start = new Date(input.started_at);
    const { limits, played } = await playTimeState(tx, tenantId, userId, now);
    const reason = refusalReason({
      selfExcluded: (await activeOwnExclusion(tx, tenantId, userId, now)) !== undefined,
      timedOut: (await activeTimeOut(tx, tenantId, userId, now)) !== undefined,
      playTimeExhausted: limits.some((limit) => isExhausted(limit, played, now.getTime())),
    });
    const end = reason === null ? sessionEndsAt(limits, played, start.getTime()) : null;
    const stored = await insertSession(tx, {
      play_session_id: newId('play_session'),
      tenant_id: tenantId,
      session_id: input.session_id,
      user_id: userId,
      started_at: start,
      created_at: now,
      allowed: reason === null,
      reason,
      ends_at: end ? new Date(end.at) : null,
      limit_type: end?.limit_type ?? null,
      reality_check_interval_seconds: await realityCheckIntervalOf(tx, tenantId, userId),
      ended_at: null,
      // A refused session counts nothing: it stops counting where it starts.
      counted_until:
        reason === null ? new Date(start.getTime() + SESSION_COUNTING_BOUND_SECONDS * 1000) : start,
      limit_reached_at: null,
    });
    if (!stored) {
      // A concurrent request stored this session_id first.
      return {
        session: repeatOf((await findSession(tx, tenantId, input.session_id))!, input, now),
        created: false,
      };
    }
    if (stored.ends_at) await scheduleLimitReached(tx, stored);
    // Long play (SG-006) is watched while the session runs: stored work plans its evaluations.
    if (stored.allowed) await playActivity(tx, { tenantId, userId, source: stored.play_session_id, at: now });
    return { session: toPlaySession(stored, now), created: true };
  });
}
