import type { Platform, TenantContext } from '../../../platform/context.js';
import { databaseGroupCommit } from '../../../platform/group-commit.js';
import { newId } from '../../../platform/ids.js';
import { formatMoney } from '../../../platform/money.js';
import { utcMinute } from '../../../platform/utc-calendar.js';
import { RESERVATION_HOLD_SECONDS, WINDOW_WORDS } from '../limits.rules.js';
import type { CheckRequest, CheckResult } from '../limits.schemas.js';
import { assertKeptCurrency } from './currency.js';
import { checkInOneStatement, type CheckInput, type CheckOutcome } from '../statements/limits-check.js';

/** Plain language for the player, shown verbatim by the tenant: what failed, what fits now, and when this fits. */
function userMessage(input: CheckRequest, breach: NonNullable<CheckOutcome['breach']>, maxNow: number) {
  const money = (cents: number) => formatMoney(cents, input.currency);
  const limit = `your ${WINDOW_WORDS[breach.limit_type]} deposit limit of ${money(breach.limit_cents)}`;
  const now =
    maxNow > 0 ? `You can deposit up to ${money(maxNow)} now` : 'You cannot deposit any more right now';
  if (breach.fits_at === null) {
    return `This deposit of ${money(input.amount_cents)} is more than ${limit}. ${now}.`;
  }
  return (
    `This deposit of ${money(input.amount_cents)} would exceed ${limit}. ` +
    `${now}, or this amount from ${utcMinute(breach.next_reset_at)}.`
  );
}

/** Holds are internal (never shown to a tenant): a deposit id's time-ordered form, with its own prefix. */
const newHoldId = () => `rsv${newId('deposit').slice('dep'.length)}`;

/**
 * Checks arriving together share one statement (one round trip and one commit for the group), each user at most
 * once in it: a second check of the same user goes in the next, and sees the first one's hold.
 */
export const limitsCheckGroupCommit = (db: Platform['db'], config: Platform['config']) =>
  databaseGroupCommit(config, (checks: CheckInput[]) => checkInOneStatement(db, checks), {
    keyOf: (check) => `${check.tenantId}\u0000${check.userId}`,
  });

declare module '../../../platform/group-commit.js' {
  interface GroupCommits {
    limitsCheck: ReturnType<typeof limitsCheckGroupCommit>;
  }
}

/**
 * The pre-deposit gate: the amount must fit under every limit in force, each over its rolling window ending now,
 * with the amounts held by earlier allowed checks; partial deposits are never allowed. An allowed amount is held
 * for RESERVATION_HOLD_SECONDS, until its commit or a release. One database round trip, which also places the hold
 * or writes limit.breach_attempt on a rejection (see checkInOneStatement).
 */
export async function checkDeposit(
  platform: Platform,
  ctx: TenantContext,
  input: CheckRequest,
): Promise<CheckResult> {
  const now = ctx.clock.now();
  const outcome = await platform.groupCommits.limitsCheck.submit({
    tenantId: ctx.tenant.tenant_id,
    userId: input.user_id,
    amountCents: input.amount_cents,
    currency: input.currency,
    now,
    eventId: newId('event'),
    holdId: newHoldId(),
    holdExpiresAt: new Date(now.getTime() + RESERVATION_HOLD_SECONDS * 1000),
  });
  assertKeptCurrency(outcome.user_currency, input.currency);
  const { breach } = outcome;
  if (breach === null) {
    return {
      allowed: true,
      amount_cents: input.amount_cents,
      would_remain_cents: outcome.would_remain_cents,
      active_limits: outcome.active_limits,
    };
  }
  return {
    allowed: false,
    reason: 'exceeds_limit',
    breached_limit_type: breach.limit_type,
    limit_amount_cents: breach.limit_cents,
    already_spent_cents: breach.spent_cents,
    max_allowed_now_cents: outcome.max_allowed_now_cents,
    next_reset_at: breach.next_reset_at.toISOString(),
    user_message: userMessage(input, breach, outcome.max_allowed_now_cents),
  };
}
