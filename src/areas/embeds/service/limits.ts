import type { Platform } from '../../../platform/context.js';
import { audit } from '../../../platform/audit.js';
import { AppError } from '../../../platform/errors.js';
import { withTransaction } from '../../../platform/service-context.js';
import {
  cancelLimit,
  listLimits,
  listLimitsOfKind,
  realityCheckOf,
  setLimit,
  setRealityCheck,
  toLimitRecord,
  type LimitKind,
  type LimitType,
} from '../../limits/index.js';
import { activeTimeOut, takeTimeOut, type TimeOutDuration } from '../../time-outs/index.js';
import { openSession } from './sessions.js';

/**
 * The limits embed: the session's player and no other, through the same verbs (and so the same events) as the
 * tenant API. Each change is also audited as made through the embed.
 */
export async function embedLimits(platform: Platform, token: string, requestId: string) {
  const { session, ctx } = await openSession(platform, token, requestId, { kind: 'deposit_limits' });
  return {
    user_id: session.user_id,
    currency: session.currency!,
    limits: await listLimits(ctx, session.user_id),
  };
}

/**
 * Everything the limits page shows: the player's limits of every kind, the time-out in force, if any, and the
 * reality-check interval (their own or the default).
 */
export async function embedControls(platform: Platform, token: string, requestId: string) {
  const { session, ctx } = await openSession(platform, token, requestId, { kind: 'deposit_limits' });
  const [limits, timeOut, realityCheck] = await Promise.all([
    listLimitsOfKind(ctx, session.user_id, 'all'),
    activeTimeOut(ctx.db, ctx.tenantId, session.user_id, ctx.clock.now()),
    realityCheckOf(ctx.db, ctx.tenantId, session.user_id),
  ]);
  return { currency: session.currency!, limits, timeOut: timeOut ?? null, realityCheck };
}

/** A change the player asks for: money kinds in minor units of the session's currency, play_time in seconds. */
export interface EmbedLimitChange {
  limit_kind?: LimitKind | undefined;
  limit_type: LimitType;
  amount_cents?: number | undefined;
  amount_seconds?: number | undefined;
}

export async function setEmbedLimit(
  platform: Platform,
  token: string,
  requestId: string,
  input: EmbedLimitChange,
) {
  const { session, ctx } = await openSession(platform, token, requestId, { kind: 'deposit_limits' });
  return withTransaction(ctx, async (tx, ctx) => {
    const result = await setLimit(ctx, {
      user_id: session.user_id,
      ...input,
      ...(input.limit_kind === 'play_time' ? {} : { currency: session.currency! }),
      requested_at: ctx.clock.now().toISOString(),
    });
    if (result.created) {
      await audit(tx, ctx, 'embed.limit_changed', {
        embed_session_id: session.embed_session_id,
        limit_id: result.limit.limit_id,
      });
    }
    return { limit: toLimitRecord(result.limit), created: result.created };
  });
}

/** Cancels a pending increase of the session's player; another player's limit is not found, as for another tenant. */
export async function cancelEmbedLimit(
  platform: Platform,
  token: string,
  requestId: string,
  limitId: string,
) {
  const { session, ctx } = await openSession(platform, token, requestId, { kind: 'deposit_limits' });
  const own = (await listLimitsOfKind(ctx, session.user_id, 'all')).some(
    (l) => l.pending_change?.limit_id === limitId,
  );
  if (!own) throw new AppError('limit_not_found', `No pending increase ${limitId} for this player`);
  return withTransaction(ctx, async (tx, ctx) => {
    const cancelled = await cancelLimit(ctx, limitId);
    await audit(tx, ctx, 'embed.limit_cancelled', {
      embed_session_id: session.embed_session_id,
      limit_id: limitId,
    });
    return toLimitRecord(cancelled);
  });
}

/**
 * Takes a time-out for the session's player, as POST /v1/time-outs does (the same record, rules and
 * timeout.started), recorded as come in through the embed.
 */
export async function takeEmbedTimeOut(
  platform: Platform,
  token: string,
  requestId: string,
  duration: TimeOutDuration,
) {
  const { session, ctx } = await openSession(platform, token, requestId, { kind: 'deposit_limits' });
  return takeTimeOut(
    ctx,
    { user_id: session.user_id, duration, initiated_at: ctx.clock.now().toISOString() },
    'embed',
  );
}

/**
 * Sets the session's player's reality-check interval (null: the operator's default), as PUT
 * /v1/players/{user_id}/reality-check does, audited as made through the embed.
 */
export async function setEmbedRealityCheck(
  platform: Platform,
  token: string,
  requestId: string,
  seconds: number | null,
) {
  const { session, ctx } = await openSession(platform, token, requestId, { kind: 'deposit_limits' });
  return withTransaction(ctx, async (tx, ctx) => {
    const set = await setRealityCheck(ctx, session.user_id, seconds);
    await audit(tx, ctx, 'embed.reality_check_changed', {
      embed_session_id: session.embed_session_id,
      interval_seconds: seconds,
    });
    return set;
  });
}
