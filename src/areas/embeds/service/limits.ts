import type { Platform } from '../../../platform/context.js';
import { audit } from '../../../platform/audit.js';
import { AppError } from '../../../platform/errors.js';
import { withTransaction } from '../../../platform/service-context.js';
import { toRecord, cancelLimit, listLimits, setLimit } from '../../limits/index.js';
import type { EmbedSetLimitRequest } from '../embeds.schemas.js';
import { openSession } from './sessions.js';

/**
 * The deposit-limits embed: the session's player and no other, through the same verbs (and so the same events) as
 * the tenant API. Each change is also audited as made through the embed.
 */
export async function embedLimits(platform: Platform, token: string, requestId: string) {
  const { session, ctx } = await openSession(platform, token, requestId, { kind: 'deposit_limits' });
  return {
    user_id: session.user_id,
    currency: session.currency!,
    limits: await listLimits(ctx, session.user_id),
  };
}

export async function setEmbedLimit(
  platform: Platform,
  token: string,
  requestId: string,
  input: EmbedSetLimitRequest,
) {
  const { session, ctx } = await openSession(platform, token, requestId, { kind: 'deposit_limits' });
  return withTransaction(ctx, async (tx, ctx) => {
    const result = await setLimit(ctx, {
      user_id: session.user_id,
      limit_type: input.limit_type,
      amount_cents: input.amount_cents,
      currency: session.currency!,
      requested_at: ctx.clock.now().toISOString(),
    });
    if (result.created) {
      await audit(tx, ctx, 'embed.limit_changed', {
        embed_session_id: session.embed_session_id,
        limit_id: result.limit.limit_id,
      });
    }
    return { limit: toRecord(result.limit), created: result.created };
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
  const own = (await listLimits(ctx, session.user_id)).some((l) => l.pending_change?.limit_id === limitId);
  if (!own) throw new AppError('limit_not_found', `No pending increase ${limitId} for this player`);
  return withTransaction(ctx, async (tx, ctx) => {
    const cancelled = await cancelLimit(ctx, limitId);
    await audit(tx, ctx, 'embed.limit_cancelled', {
      embed_session_id: session.embed_session_id,
      limit_id: limitId,
    });
    return toRecord(cancelled);
  });
}
