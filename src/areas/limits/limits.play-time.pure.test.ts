import { describe, expect, it } from 'vitest';
import {
  firstCrossing,
  isExhausted,
  nextRealityCheckAt,
  playFreedAt,
  playResetsAt,
  refusalReason,
  remainingSeconds,
  sessionEndsAt,
  spentSeconds,
  type PlayTimeLimit,
} from './sessions/play-time.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const daily = (minutes: number): PlayTimeLimit => ({
  limit_type: 'limit_daily',
  amount_seconds: minutes * 60,
});

describe('refusalReason: the strongest reason that forbids play', () => {
  it.each([
    [{ selfExcluded: true, timedOut: true, playTimeExhausted: true }, 'self_excluded'],
    [{ selfExcluded: false, timedOut: true, playTimeExhausted: true }, 'timed_out'],
    [{ selfExcluded: false, timedOut: false, playTimeExhausted: true }, 'play_time_exhausted'],
    [{ selfExcluded: false, timedOut: false, playTimeExhausted: false }, null],
  ])('%o → %s', (facts, reason) => {
    expect(refusalReason(facts)).toBe(reason);
  });
});

describe('sessionEndsAt', () => {
  it('a session starting with 10 minutes of daily play left ends 10 minutes later, under the daily limit', () => {
    const played = [{ start: 0, stop: 50 * MIN }];
    expect(sessionEndsAt([daily(60)], played, 2 * HOUR)).toEqual({
      at: 2 * HOUR + 10 * MIN,
      limit_type: 'limit_daily',
    });
  });

  it('play leaving the rolling window during the session gives time back', () => {
    // 60 minutes played 23h30 before the start: half of it leaves the window in the first 30 minutes.
    const played = [{ start: 0, stop: HOUR }];
    const start = DAY - 30 * MIN;
    // A 60-minute limit is reached at once: the old hour is all in the window at the start.
    expect(sessionEndsAt([daily(60)], played, start)).toEqual({ at: start, limit_type: 'limit_daily' });
    // 100 minutes: 90 played by DAY, then flat while the old hour leaves as fast as the session adds, then 10 more.
    expect(sessionEndsAt([daily(100)], played, start)).toEqual({
      at: DAY + HOUR + 10 * MIN,
      limit_type: 'limit_daily',
    });
  });

  it('limit_session caps the session itself; the earliest limit wins, the shorter type on a tie', () => {
    const limits: PlayTimeLimit[] = [daily(120), { limit_type: 'limit_session', amount_seconds: 45 * 60 }];
    expect(sessionEndsAt(limits, [], 0)).toEqual({ at: 45 * MIN, limit_type: 'limit_session' });
    const tie: PlayTimeLimit[] = [{ limit_type: 'limit_weekly', amount_seconds: 3600 }, daily(60)];
    expect(sessionEndsAt(tie, [], 0)).toEqual({ at: HOUR, limit_type: 'limit_daily' });
  });

  it('counts another open session as running on; null when nothing runs out before the bound', () => {
    expect(sessionEndsAt([daily(60)], [{ start: 0, stop: DAY }], 10 * MIN)).toEqual({
      at: 35 * MIN,
      limit_type: 'limit_daily',
    });
    expect(sessionEndsAt([{ limit_type: 'limit_monthly', amount_seconds: 2 * 86_400 }], [], 0)).toBeNull();
    expect(sessionEndsAt([], [], 0)).toBeNull();
  });
});

describe('exhaustion, what is left and when play comes back', () => {
  const played = [{ start: 0, stop: HOUR }];

  it('less than a second left is exhausted; the listing shows whole seconds', () => {
    expect(isExhausted(daily(60), played, 2 * HOUR)).toBe(true);
    expect(remainingSeconds(daily(60), played, 2 * HOUR)).toBe(0);
    expect(spentSeconds(daily(60), played, 2 * HOUR)).toBe(3600);
    expect(isExhausted(daily(61), played, 2 * HOUR)).toBe(false);
    expect(remainingSeconds(daily(61), played, 2 * HOUR)).toBe(60);
    expect(isExhausted({ limit_type: 'limit_session', amount_seconds: 300 }, played, 2 * HOUR)).toBe(false);
  });

  it('an open session counts only up to now', () => {
    const open = [{ start: 0, stop: DAY }];
    expect(spentSeconds(daily(120), open, 30 * MIN)).toBe(1800);
    expect(spentSeconds({ limit_type: 'limit_session', amount_seconds: 3600 }, open, 30 * MIN)).toBe(1800);
    expect(isExhausted(daily(60), open, 30 * MIN)).toBe(false);
  });

  it('frees up once a second has left the window; null when nothing is exhausted', () => {
    expect(playFreedAt([daily(60)], played, 2 * HOUR)).toBe(DAY + 1000);
    expect(remainingSeconds(daily(60), played, DAY + 1000)).toBe(1);
    expect(playFreedAt([daily(61)], played, 2 * HOUR)).toBeNull();
    // Two exhausted limits: the later one.
    const weekly: PlayTimeLimit = { limit_type: 'limit_weekly', amount_seconds: 3600 };
    expect(playFreedAt([daily(60), weekly], played, 2 * HOUR)).toBe(7 * DAY + 1000);
  });

  it('next_reset_at: when the oldest counted play starts leaving the window', () => {
    expect(playResetsAt(daily(120), played, 2 * HOUR)).toBe(DAY);
    expect(playResetsAt(daily(120), played, DAY + 10 * MIN)).toBe(DAY + 10 * MIN);
    expect(playResetsAt(daily(120), [], 0)).toBeNull();
    expect(playResetsAt({ limit_type: 'limit_session', amount_seconds: 300 }, played, 2 * HOUR)).toBeNull();
  });
});

describe('firstCrossing', () => {
  it('finds the exact moment between bends, with parallel sessions counting twice', () => {
    const parallel = [
      { start: 0, stop: HOUR },
      { start: 0, stop: HOUR },
    ];
    expect(firstCrossing(parallel, DAY, HOUR, 0, 'up')).toBe(30 * MIN);
    expect(firstCrossing(parallel, DAY, HOUR, HOUR, 'down')).toBe(DAY + 30 * MIN);
    expect(firstCrossing(parallel, DAY, 3 * HOUR, 0, 'up')).toBeNull();
  });
});

describe('nextRealityCheckAt', () => {
  it('every interval from the start, the next after now; null past the stop or without an interval', () => {
    expect(nextRealityCheckAt(0, 1800, 0, DAY)).toBe(30 * MIN);
    expect(nextRealityCheckAt(0, 1800, 30 * MIN, DAY)).toBe(HOUR);
    expect(nextRealityCheckAt(0, 1800, 45 * MIN, DAY)).toBe(HOUR);
    expect(nextRealityCheckAt(HOUR, 1800, 0, DAY)).toBe(HOUR + 30 * MIN);
    expect(nextRealityCheckAt(0, 1800, 0, 20 * MIN)).toBeNull();
    expect(nextRealityCheckAt(0, null, 0, DAY)).toBeNull();
  });
});
