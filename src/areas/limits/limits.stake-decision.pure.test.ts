import { describe, expect, it } from 'vitest';
import {
  decideStake,
  stakeFitsAt,
  unmatchedHolds,
  used,
  type StakeLimit,
  type WindowTotals,
} from './stakes/stake-decision.js';
import type { WindowType } from './limits.rules.js';

const none: WindowTotals = { stakes: 0, payouts: 0 };
const totals = (daily: WindowTotals, weekly = daily, monthly = weekly): Record<WindowType, WindowTotals> => ({
  limit_daily: daily,
  limit_weekly: weekly,
  limit_monthly: monthly,
});
const limit = (
  kind: 'loss' | 'wager',
  amount_cents: number,
  type: WindowType = 'limit_daily',
): StakeLimit => ({
  limit_id: `lim_${kind}_${type}`,
  kind,
  type,
  amount_cents,
});
const at = (hours: number) => new Date(Date.UTC(2030, 0, 1, 12) + hours * 3_600_000);

describe('used: what a stake counts against', () => {
  it.each([
    ['wager', { stakes: 5_000, payouts: 9_000 }, 0, 5_000],
    ['loss', { stakes: 5_000, payouts: 2_000 }, 0, 3_000],
    // Winnings beyond zero net loss give no extra room.
    ['loss', { stakes: 5_000, payouts: 9_000 }, 0, 0],
    ['loss', { stakes: 5_000, payouts: 9_000 }, 1_000, 1_000],
    ['wager', { stakes: 5_000, payouts: 0 }, 1_000, 6_000],
  ] as const)('%s with %o and %i held uses %i', (kind, window, held, expected) => {
    expect(used(kind, window, held)).toBe(expected);
  });
});

describe('decideStake', () => {
  it('allows any stake when no loss or wager limit is in force', () => {
    expect(decideStake([], totals(none), 0, 1_000_000)).toEqual({ allowed: true, wouldRemainCents: null });
  });

  it('allows a stake that fits every limit, reporting the least room left after it', () => {
    const decision = decideStake(
      [limit('wager', 10_000), limit('loss', 5_000)],
      totals({ stakes: 4_000, payouts: 1_000 }),
      0,
      1_000,
    );
    expect(decision).toEqual({ allowed: true, wouldRemainCents: 1_000 });
  });

  it('rejects a stake that fits the wager limit but could breach the loss limit, naming the loss limit', () => {
    const decision = decideStake(
      [limit('wager', 20_000), limit('loss', 5_000)],
      totals({ stakes: 4_000, payouts: 0 }),
      0,
      2_000,
    );
    expect(decision).toEqual({
      allowed: false,
      limit: limit('loss', 5_000),
      usedCents: 4_000,
      maxAllowedNowCents: 1_000,
    });
  });

  it('counts held stakes in both kinds', () => {
    const decision = decideStake([limit('wager', 10_000)], totals(none), 8_000, 8_000);
    expect(decision).toMatchObject({ allowed: false, usedCents: 8_000, maxAllowedNowCents: 2_000 });
  });

  it('names the limit with the least room; on a tie the shorter window, then the loss limit', () => {
    const window = totals({ stakes: 1_000, payouts: 0 });
    expect(
      decideStake(
        [limit('wager', 3_000, 'limit_weekly'), limit('wager', 3_000, 'limit_daily')],
        window,
        0,
        5_000,
      ),
    ).toMatchObject({ limit: { type: 'limit_daily' } });
    expect(decideStake([limit('wager', 3_000), limit('loss', 3_000)], window, 0, 5_000)).toMatchObject({
      limit: { kind: 'loss' },
    });
    expect(decideStake([limit('wager', 2_000), limit('loss', 3_000)], window, 0, 5_000)).toMatchObject({
      limit: { kind: 'wager' },
    });
  });
});

describe('stakeFitsAt', () => {
  const now = at(0);

  it('is null for a stake over the limit itself', () => {
    expect(stakeFitsAt(limit('wager', 1_000), [], 0, null, 1_001, now)).toBeNull();
  });

  it('is when enough old stakes have left the window', () => {
    const events = [
      { type: 'wager' as const, at: at(-20), cents: 3_000 },
      { type: 'wager' as const, at: at(-10), cents: 3_000 },
    ];
    // 6,000 of 7,000 used: 4,000 fits once the first stake leaves, 24 hours after it.
    expect(stakeFitsAt(limit('wager', 7_000), events, 0, null, 4_000, now)).toEqual(at(4));
  });

  it('for a loss limit, a payout leaving the window can push the fit later', () => {
    const events = [
      { type: 'settlement' as const, at: at(-22), cents: 2_000 },
      { type: 'wager' as const, at: at(-21), cents: 5_000 },
      { type: 'wager' as const, at: at(-5), cents: 1_000 },
    ];
    // Net loss 4,000 of 5,000. At +2 the payout leaves (net loss 6,000); at +3 the 5,000 stake leaves (1,000).
    expect(stakeFitsAt(limit('loss', 5_000), events, 0, null, 3_000, now)).toEqual(at(3));
  });

  it('waits for held stakes to lapse when only they stand in the way', () => {
    expect(stakeFitsAt(limit('wager', 10_000), [], 8_000, at(0.5), 5_000, now)).toEqual(at(0.5));
  });
});

describe('unmatchedHolds', () => {
  const hold = (amount_cents: number, hours: number) => ({
    amount_cents,
    held_at: at(hours),
    expires_at: at(hours + 1),
  });

  it('ends one hold per wager event of its amount acknowledged at or after it, the oldest first', () => {
    const holds = [hold(500, 0), hold(500, 0.1), hold(700, 0.2)];
    const open = unmatchedHolds(holds, [{ amount_cents: 500, received_at: at(0.3) }]);
    expect(open).toEqual([hold(500, 0.1), hold(700, 0.2)]);
  });

  it('leaves a hold placed after the event, and one of another amount', () => {
    const holds = [hold(500, 1), hold(600, 0)];
    expect(unmatchedHolds(holds, [{ amount_cents: 500, received_at: at(0.5) }])).toEqual([
      hold(600, 0),
      hold(500, 1),
    ]);
  });
});
