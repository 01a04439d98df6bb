import { describe, expect, it } from 'vitest';
import { decideTimeOut, DURATION_SECONDS, endsAt, type TimeOutDuration } from './time-outs.rules.js';

const HOUR = 3_600;
const DAY = 86_400;
const now = new Date('2030-01-01T12:00:00Z');
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

/** The time-out rules of docs/player-protection.md, cell by cell. */
describe('time-out rules', () => {
  it.each([
    ['duration_24h', 24 * HOUR],
    ['duration_7d', 7 * DAY],
    ['duration_30d', 30 * DAY],
    ['duration_6w', 42 * DAY],
  ] as const)('%s lasts %i seconds from its start', (duration, seconds) => {
    expect(DURATION_SECONDS[duration]).toBe(seconds);
    expect(endsAt(duration, now)).toEqual(later(seconds));
  });

  // What a request does given the time-out in force at its receipt (its duration and ends_at).
  it.each<[string, string, { duration: TimeOutDuration; ends_at: Date } | undefined, TimeOutDuration]>([
    ['none in force', 'start', undefined, 'duration_7d'],
    [
      'the one in force ended exactly now',
      'start',
      { duration: 'duration_24h', ends_at: now },
      'duration_24h',
    ],
    [
      'the same duration, just taken',
      'repeat',
      { duration: 'duration_7d', ends_at: later(7 * DAY) },
      'duration_7d',
    ],
    // The natural key: the same duration later in the break is still the same request, never an extension.
    [
      'the same duration, a day later',
      'repeat',
      { duration: 'duration_7d', ends_at: later(6 * DAY) },
      'duration_7d',
    ],
    ['a shorter one', 'keep', { duration: 'duration_7d', ends_at: later(7 * DAY) }, 'duration_24h'],
    // A 24-hour break asked with exactly 24 hours left would end at the same instant: nothing changes.
    [
      'one ending at the same instant',
      'keep',
      { duration: 'duration_7d', ends_at: later(DAY) },
      'duration_24h',
    ],
    [
      'one ending a second later',
      'extend',
      { duration: 'duration_7d', ends_at: later(DAY - 1) },
      'duration_24h',
    ],
    ['a longer one', 'extend', { duration: 'duration_24h', ends_at: later(DAY) }, 'duration_6w'],
  ])('%s → %s', (_name, decision, inForce, duration) => {
    expect(decideTimeOut(inForce, duration, now)).toBe(decision);
  });
});
