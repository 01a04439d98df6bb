import type { TenantContext } from '../../../platform/context.js';
import { minorScale } from '../../../platform/fx.js';
import { newId } from '../../../platform/ids.js';
import { formatMoney } from '../../../platform/money.js';
import { emitEvent } from '../../../platform/outbox.js';
import { withTransaction } from '../../../platform/service-context.js';
import { utcMinute } from '../../../platform/utc-calendar.js';
import { STAKE_HOLD_SECONDS, WINDOW_SECONDS, WINDOW_WORDS } from '../limits.rules.js';
import type { WagerCheckRequest, WagerCheckResult } from '../limits.schemas.js';
import { lockUser, userCurrency } from '../limits.store.js';
import { heldStakes } from '../stakes/held-stakes.js';
import { decideStake, stakeFitsAt, type StakeLimit } from '../stakes/stake-decision.js';
import { countedEvents, insertStakeHold, stakeLimitsInForce, stakeTotals } from '../stakes/stakes.store.js';
import { assertKeptCurrency } from './currency.js';

/** Plain language for the player, shown verbatim by the tenant: what failed, what fits now, and when this fits. */
function userMessage(
  input: WagerCheckRequest,
  limit: StakeLimit,
  maxNow: number,
  fitsAt: Date | null,
): string {
  const money = (cents: number) => formatMoney(cents, input.currency);
  const kind = limit.kind === 'loss' ? 'loss' : 'stake';
  const named = `your ${WINDOW_WORDS[limit.type]} ${kind} limit of ${money(limit.amount_cents)}`;
  const now = maxNow > 0 ? `You can stake up to ${money(maxNow)} now` : 'You cannot stake any more right now';
  if (fitsAt === null) return `This stake of ${money(input.amount_cents)} is more than ${named}. ${now}.`;
  return `This stake of ${money(input.amount_cents)} would exceed ${named}. ${now}, or this amount from ${utcMinute(fitsAt)}.`;
}

/**
 * The pre-bet gate: the stake must fit every loss and wager limit in force (stake-decision.ts), counting the
 * stakes and payouts of acknowledged AML events and the stakes held by earlier allowed checks. An allowed stake is
 * held until its wager event is acknowledged, or STAKE_HOLD_SECONDS. The player's lock (the one limit changes and
 * deposit commits take) serialises concurrent checks, so together they never overspend a limit.
 */
export async function checkWager(ctx: TenantContext, input: WagerCheckRequest): Promise<WagerCheckResult> {
  const tenantId = ctx.tenant.tenant_id;
  const userId = input.user_id;
  return withTransaction(ctx, async (tx, ctx) => {
    await lockUser(tx, tenantId, userId);
    const now = ctx.clock.now();
    assertKeptCurrency(await userCurrency(tx, tenantId, userId), input.currency);
    const limits = await stakeLimitsInForce(tx, tenantId, userId, now);
    const active = limits.map((l) => ({ limit_kind: l.kind, limit_type: l.type }));
    if (limits.length === 0) {
      return { allowed: true, amount_cents: input.amount_cents, would_remain_cents: null, active_limits: [] };
    }
    const scale = minorScale(input.currency);
    const live = await heldStakes(tx, tenantId, userId, now);
    const held = live.reduce((sum, h) => sum + h.amount_cents, 0);
    const totals = await stakeTotals(tx, tenantId, userId, input.currency, scale, now);
    const decision = decideStake(limits, totals, held, input.amount_cents);
    if (decision.allowed) {
      await insertStakeHold(tx, {
        tenant_id: tenantId,
        hold_id: newId('stake_hold'),
        user_id: userId,
        amount_cents: input.amount_cents,
        currency: input.currency,
        held_at: now,
        expires_at: new Date(now.getTime() + STAKE_HOLD_SECONDS * 1000),
      });
      return {
        allowed: true,
        amount_cents: input.amount_cents,
        would_remain_cents: decision.wouldRemainCents,
        active_limits: active,
      };
    }
    const { limit, usedCents, maxAllowedNowCents } = decision;
    const since = new Date(now.getTime() - WINDOW_SECONDS[limit.type] * 1000);
    const events = await countedEvents(tx, tenantId, userId, input.currency, scale, since);
    const holdsLapseAt =
      live.length === 0 ? null : new Date(Math.max(...live.map((h) => h.expires_at.getTime())));
    const fitsAt = stakeFitsAt(limit, events, held, holdsLapseAt, input.amount_cents, now);
    const breach = {
      breached_limit_kind: limit.kind,
      breached_limit_type: limit.type,
      limit_amount_cents: limit.amount_cents,
      already_spent_cents: usedCents,
      max_allowed_now_cents: maxAllowedNowCents,
      next_reset_at: fitsAt?.toISOString() ?? null,
    };
    await emitEvent(tx, {
      tenantIds: tenantId,
      event: 'limit.breach_attempt',
      data: {
        user_id: userId,
        amount_cents: input.amount_cents,
        currency: input.currency,
        limit_id: limit.limit_id,
        limit_kind: limit.kind,
        ...breach,
      },
      at: now,
    });
    return {
      allowed: false,
      reason: 'exceeds_limit',
      ...breach,
      user_message: userMessage(input, limit, maxAllowedNowCents, fitsAt),
    };
  });
}
