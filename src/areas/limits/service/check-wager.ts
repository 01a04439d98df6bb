import type { Transaction } from 'kysely';
import type { Platform, TenantContext } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import type { AppError } from '../../../platform/errors.js';
import { minorScale } from '../../../platform/fx.js';
import { databaseGroupCommit } from '../../../platform/group-commit.js';
import { newId } from '../../../platform/ids.js';
import { formatMoney } from '../../../platform/money.js';
import { emitEvent } from '../../../platform/outbox.js';
import { utcMinute } from '../../../platform/utc-calendar.js';
import { STAKE_HOLD_SECONDS, WINDOW_SECONDS, WINDOW_WORDS } from '../limits.rules.js';
import type { WagerCheckRequest, WagerCheckResult } from '../limits.schemas.js';
import { lockUsers } from '../limits.store.js';
import { decideStake, stakeFitsAt, unmatchedHolds, type StakeLimit } from '../stakes/stake-decision.js';
import { countedEvents, insertStakeHolds, stakeStates, type StakeState } from '../stakes/stakes.store.js';
import { keptCurrencyRefusal } from './currency.js';
import { markerActivity } from '../../safer-gambling/index.js';

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

/** One wager check of a group: the request, whose it is and when it is asked. */
interface WagerCheck extends WagerCheckRequest {
  tenantId: string;
  at: Date;
}

/** A check's answer, or the refusal it answers with (422 currency_mismatch), which fails only its own request. */
type WagerCheckOutcome = { result: WagerCheckResult } | { refusal: AppError };

/**
 * Checks arriving together share one transaction (one commit for the group, and four round trips whatever its
 * size: the players' locks, their states, the holds placed, the commit), each player at most once in it: a second
 * check of the same player goes in the next, and sees the first one's hold.
 */
export const wagerCheckGroupCommit = (db: Platform['db'], config: Platform['config']) =>
  databaseGroupCommit(
    config,
    (checks: WagerCheck[]) => db.transaction().execute((tx) => checkWagersTogether(tx, checks)),
    { keyOf: (check) => `${check.tenantId}\u0000${check.user_id}` },
  );

declare module '../../../platform/group-commit.js' {
  interface GroupCommits {
    wagerCheck: ReturnType<typeof wagerCheckGroupCommit>;
  }
}

/**
 * The pre-bet gate: the stake must fit every loss and wager limit in force (stake-decision.ts), counting the
 * stakes and payouts of acknowledged AML events and the stakes held by earlier allowed checks. An allowed stake is
 * held until its wager event is acknowledged, or STAKE_HOLD_SECONDS. The player's lock (the one limit changes and
 * deposit commits take) serialises concurrent checks, so together they never overspend a limit.
 */
export async function checkWager(
  platform: Platform,
  ctx: TenantContext,
  input: WagerCheckRequest,
): Promise<WagerCheckResult> {
  const outcome = await platform.groupCommits.wagerCheck.submit({
    ...input,
    tenantId: ctx.tenant.tenant_id,
    at: ctx.clock.now(),
  });
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome.result;
}

async function checkWagersTogether(tx: Transaction<DB>, checks: WagerCheck[]): Promise<WagerCheckOutcome[]> {
  await lockUsers(
    tx,
    checks.map((check) => ({ tenantId: check.tenantId, userId: check.user_id })),
  );
  const states = await stakeStates(
    tx,
    checks.map((check) => ({
      tenantId: check.tenantId,
      userId: check.user_id,
      currency: check.currency,
      scale: minorScale(check.currency),
      at: check.at,
    })),
  );
  const outcomes: WagerCheckOutcome[] = [];
  const holds: Parameters<typeof insertStakeHolds>[1] = [];
  for (const [i, check] of checks.entries()) {
    const state = states[i]!;
    const refusal = keptCurrencyRefusal(state.userCurrency, check.currency);
    if (refusal) {
      outcomes.push({ refusal });
      continue;
    }
    const result = await decideWager(tx, check, state);
    if (result.allowed && state.limits.length > 0) {
      holds.push({
        tenant_id: check.tenantId,
        hold_id: newId('stake_hold'),
        user_id: check.user_id,
        amount_cents: check.amount_cents,
        currency: check.currency,
        held_at: check.at,
        expires_at: new Date(check.at.getTime() + STAKE_HOLD_SECONDS * 1000),
      });
    }
    outcomes.push({ result });
  }
  await insertStakeHolds(tx, holds);
  return outcomes;
}

/** One check's answer from its player's state; a rejection writes limit.breach_attempt. */
async function decideWager(
  tx: Transaction<DB>,
  check: WagerCheck,
  state: StakeState,
): Promise<WagerCheckResult> {
  const { limits, totals } = state;
  const active = limits.map((l) => ({ limit_kind: l.kind, limit_type: l.type }));
  if (limits.length === 0) {
    return { allowed: true, amount_cents: check.amount_cents, would_remain_cents: null, active_limits: [] };
  }
  const live = unmatchedHolds(state.holds, state.acknowledged);
  const held = live.reduce((sum, h) => sum + h.amount_cents, 0);
  const decision = decideStake(limits, totals, held, check.amount_cents);
  if (decision.allowed) {
    return {
      allowed: true,
      amount_cents: check.amount_cents,
      would_remain_cents: decision.wouldRemainCents,
      active_limits: active,
    };
  }
  const { limit, usedCents, maxAllowedNowCents } = decision;
  const since = new Date(check.at.getTime() - WINDOW_SECONDS[limit.type] * 1000);
  const scale = minorScale(check.currency);
  const events = await countedEvents(tx, check.tenantId, check.user_id, check.currency, scale, since);
  const holdsLapseAt =
    live.length === 0 ? null : new Date(Math.max(...live.map((h) => h.expires_at.getTime())));
  const fitsAt = stakeFitsAt(limit, events, held, holdsLapseAt, check.amount_cents, check.at);
  const breach = {
    breached_limit_kind: limit.kind,
    breached_limit_type: limit.type,
    limit_amount_cents: limit.amount_cents,
    already_spent_cents: usedCents,
    max_allowed_now_cents: maxAllowedNowCents,
    next_reset_at: fitsAt?.toISOString() ?? null,
  };
  await emitEvent(tx, {
    tenantIds: check.tenantId,
    event: 'limit.breach_attempt',
    data: {
      user_id: check.user_id,
      amount_cents: check.amount_cents,
      currency: check.currency,
      limit_id: limit.limit_id,
      limit_kind: limit.kind,
      ...breach,
    },
    at: check.at,
  });
  // A breach attempt is SG-005's input: evaluated as stored work, after this check has answered.
  await markerActivity(tx, {
    tenantId: check.tenantId,
    userId: check.user_id,
    source: limit.limit_id,
    at: check.at,
  });
  return {
    allowed: false,
    reason: 'exceeds_limit',
    ...breach,
    user_message: userMessage(check, limit, maxAllowedNowCents, fitsAt),
  };
}
