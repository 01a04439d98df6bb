import { AML_RULES } from '../aml.rules.js';
import { check, type Check } from '../statements/checks.js';
import { matchingLegs } from '../statements/history.js';
import { recordedPairs } from '../statements/screen-history.js';
import type { HistoryPoint } from './types.js';

const { parameters, counts } = AML_RULES['R-005'];
const { tolerance_percent, window_seconds } = parameters;

/** |a − b| ≤ 5% of the larger amount. */
export const withinTolerance = (a: number, b: number) =>
  a > 0 && b > 0 && 100 * Math.abs(a - b) <= tolerance_percent * Math.max(a, b);

/**
 * a deposit and a withdrawal within 5% of each other and within 24 hours of each other, checked from
 * either leg (p.at is the leg's time). `lookAhead` also searches the 24 hours after the leg (async evaluation;
 * a screen's withdrawal is the latest leg). Each pair is its own pattern.
 */
export function roundTripping(
  p: HistoryPoint,
  leg: { type: 'deposit' | 'withdrawal'; transactionId: string; usdCents: number; lookAhead: boolean },
): Check {
  const otherType = leg.type === 'deposit' ? 'withdrawal' : 'deposit';
  const fragment = () =>
    matchingLegs(p, {
      type: otherType,
      secondsBefore: window_seconds,
      secondsAfter: leg.lookAhead ? window_seconds : 0,
      usdCents: leg.usdCents,
      tolerancePercent: tolerance_percent,
      counts,
    });
  return check(fragment, (counterparts) =>
    counterparts.map((other) => {
      const [deposit, withdrawal] =
        leg.type === 'deposit'
          ? [leg.transactionId, other.transaction_id]
          : [other.transaction_id, leg.transactionId];
      return {
        rule: 'R-005' as const,
        userId: p.userId,
        patternKey: `${deposit}|${withdrawal}`,
        at: p.at,
        transactionIds: [deposit, withdrawal],
        details: {
          deposit_transaction_id: deposit,
          withdrawal_transaction_id: withdrawal,
          [`${leg.type}_usd_cents`]: leg.usdCents,
          [`${otherType}_usd_cents`]: other.usd_cents,
          tolerance_percent,
        },
      };
    }),
  );
}

/**
 * R-005 at a screen, from the recorded history alone: pairs whose later leg is in the last 24 hours (a pair with
 * the withdrawal under screen is found by roundTripping from that leg).
 */
export function recordedRoundTrips(p: HistoryPoint): Check {
  const fragment = () =>
    recordedPairs(p, { seconds: window_seconds, tolerancePercent: tolerance_percent, counts });
  return check(fragment, (pairs) => {
    const unique = new Map(pairs.map((pair) => [`${pair.deposit}|${pair.withdrawal}`, pair]));
    return [...unique].map(([patternKey, pair]) => ({
      rule: 'R-005' as const,
      userId: p.userId,
      patternKey,
      at: p.at,
      transactionIds: [pair.deposit, pair.withdrawal],
      details: {
        deposit_transaction_id: pair.deposit,
        withdrawal_transaction_id: pair.withdrawal,
        deposit_usd_cents: pair.deposit_usd_cents,
        withdrawal_usd_cents: pair.withdrawal_usd_cents,
        tolerance_percent,
      },
    }));
  });
}
