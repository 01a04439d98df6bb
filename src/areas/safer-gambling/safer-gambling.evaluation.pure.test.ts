import { describe, expect, it } from 'vitest';
import { thresholdsOf, UK_FINANCIAL_PROFILE } from './safer-gambling.rules.js';
import {
  baselineWeeks,
  financialCrossings,
  limitBehaviour,
  longPlay,
  nextLongPlayCheck,
  nightPlay,
  spendEscalation,
} from './service/evaluate-decisions.js';
import { atNight } from './service/evaluate-events.js';

const HOUR = 3_600;
const DAY = 86_400;
const at = new Date('2030-01-01T12:00:00Z');
const ago = (seconds: number) => new Date(at.getTime() - seconds * 1000);

describe("SG-001's baseline", () => {
  const t = thresholdsOf('SG-001');

  it('is not evaluated under 4 weeks of history, nor with no history', () => {
    expect(baselineWeeks(ago(28 * DAY - 1), at, t)).toBeNull();
    expect(baselineWeeks(null, at, t)).toBeNull();
  });

  it('averages over the weeks of history before the window, a started week counting, 12 at most', () => {
    expect(baselineWeeks(ago(28 * DAY), at, t)).toBe(3);
    expect(baselineWeeks(ago(28 * DAY + 1), at, t)).toBe(4);
    expect(baselineWeeks(ago(400 * DAY), at, t)).toBe(12);
  });

  it('trips at the larger of USD 500 and 3 times the average, in integers', () => {
    const firstAt = ago(91 * DAY);
    // USD 2,400 over 12 weeks: USD 200 a week, so USD 600.
    expect(
      spendEscalation({ windowUsdCents: 60_000, baselineUsdCents: 240_000, firstAt }, at, t),
    ).toMatchObject({
      measuredValue: 60_000,
      threshold: 60_000,
    });
    expect(spendEscalation({ windowUsdCents: 59_999, baselineUsdCents: 240_000, firstAt }, at, t)).toBeNull();
    expect(spendEscalation({ windowUsdCents: 50_000, baselineUsdCents: 0, firstAt }, at, t)).toMatchObject({
      threshold: 50_000,
    });
  });

  it("takes a tenant's overrides", () => {
    const own = thresholdsOf('SG-001', { 'SG-001': { min_deposits_usd_cents: 100_000 } });
    const firstAt = ago(91 * DAY);
    expect(spendEscalation({ windowUsdCents: 99_999, baselineUsdCents: 0, firstAt }, at, own)).toBeNull();
  });
});

describe('SG-003 night play', () => {
  const t = thresholdsOf('SG-003');

  it('needs both the count and the share', () => {
    expect(nightPlay({ stakes: 20, nightStakes: 10 }, 'UTC', t)).toMatchObject({
      measuredValue: 50,
      threshold: 50,
    });
    expect(nightPlay({ stakes: 21, nightStakes: 10 }, 'UTC', t)).toBeNull();
    expect(nightPlay({ stakes: 19, nightStakes: 19 }, 'UTC', t)).toBeNull();
  });

  it("reads the hour in the tenant's time zone, and a zone it cannot read as UTC", () => {
    expect(atNight(new Date('2030-01-01T05:59:59Z'), 'UTC')).toBe(true);
    expect(atNight(new Date('2030-01-01T06:00:00Z'), 'UTC')).toBe(false);
    expect(atNight(new Date('2030-01-01T10:00:00Z'), 'America/New_York')).toBe(true);
    expect(atNight(new Date('2030-01-01T23:30:00Z'), 'Europe/Berlin')).toBe(true);
    expect(atNight(new Date('2030-01-01T03:00:00Z'), 'Not/AZone')).toBe(true);
  });
});

describe('SG-005 and SG-006 with two conditions', () => {
  it('measures the condition that tripped, increases and time played first', () => {
    const limits = thresholdsOf('SG-005');
    expect(limitBehaviour({ increases: 2, breachAttempts: 5 }, limits)).toMatchObject({
      measuredValue: 2,
      details: { condition: 'limit_increases' },
    });
    expect(limitBehaviour({ increases: 1, breachAttempts: 3 }, limits)).toMatchObject({
      measuredValue: 3,
      details: { condition: 'breach_attempts' },
    });
    expect(limitBehaviour({ increases: 1, breachAttempts: 2 }, limits)).toBeNull();
    const play = thresholdsOf('SG-006');
    expect(longPlay({ playedSeconds: 6 * HOUR, longSessions: 3 }, play)).toMatchObject({
      details: { condition: 'time_played' },
    });
    expect(longPlay({ playedSeconds: 6 * HOUR - 1, longSessions: 2 }, play)).toBeNull();
  });
});

describe('the next long-play evaluation while sessions run', () => {
  const t = thresholdsOf('SG-006');
  const open = (startedAgo: number) => ({ startedAt: ago(startedAgo), countedUntil: ago(startedAgo - DAY) });

  it('is when a session reaches 3 hours, or when the time played would reach 6 hours', () => {
    expect(nextLongPlayCheck([open(0)], 0, at, t)).toEqual(ago(-3 * HOUR));
    expect(nextLongPlayCheck([open(4 * HOUR)], 4 * HOUR, at, t)).toEqual(ago(-2 * HOUR));
    // Two sessions at once play twice as fast.
    expect(nextLongPlayCheck([open(4 * HOUR), open(4 * HOUR)], 4 * HOUR, at, t)).toEqual(ago(-HOUR));
  });

  it('is none when no session runs, or nothing is left to reach', () => {
    expect(nextLongPlayCheck([], 0, at, t)).toBeNull();
    expect(nextLongPlayCheck([open(7 * HOUR)], 7 * HOUR, at, t)).toBeNull();
    expect(nextLongPlayCheck([{ startedAt: ago(DAY + 1), countedUntil: ago(1) }], 0, at, t)).toBeNull();
  });
});

describe('financial crossings', () => {
  it("are the profile's thresholds the net deposits reach, each in its window", () => {
    const net = { rolling_24h: 100_000, rolling_30d: 100_000, rolling_90d: 199_999 };
    expect(financialCrossings(net, UK_FINANCIAL_PROFILE).map((c) => [c.level, c.window])).toEqual([
      ['light', 'rolling_30d'],
      ['enhanced', 'rolling_24h'],
    ]);
    expect(
      financialCrossings({ rolling_24h: 0, rolling_30d: 14_999, rolling_90d: 14_999 }, UK_FINANCIAL_PROFILE),
    ).toEqual([]);
  });
});
