import { describe, expect, it } from 'vitest';
import {
  increaseCooloffSeconds,
  WINDOW_TYPES,
  MINIMUM_LIMIT_CENTS,
  RESERVATION_HOLD_SECONDS,
  WINDOW_SECONDS,
} from './limits.rules.js';

/** The deposit-limit tables of the spec and docs/limits.md, cell by cell, each value written from the docs. */
describe('deposit-limit rules', () => {
  // An increase over a limit of 100.00 in force: exactly 2x and exactly 5x fall in the lower tier.
  it.each([
    [10_001, 86_400],
    [20_000, 86_400],
    [20_001, 172_800],
    [50_000, 172_800],
    [50_001, 604_800],
    [10_000_000, 604_800],
  ])('raising 10000 to %i cools off %i seconds', (requested, cooloff) => {
    expect(increaseCooloffSeconds(10_000, requested)).toBe(cooloff);
  });

  it.each([
    [666, 86_400],
    [667, 172_800],
    [1_665, 172_800],
    [1_666, 604_800],
  ])(
    'raising 333 to %i cools off %i seconds (the boundaries hold for a limit of any amount)',
    (requested, cooloff) => {
      expect(increaseCooloffSeconds(333, requested)).toBe(cooloff);
    },
  );

  it.each([
    ['limit_daily', 86_400],
    ['limit_weekly', 604_800],
    ['limit_monthly', 2_592_000],
  ] as const)('%s is a rolling window of %i seconds', (type, seconds) => {
    expect(WINDOW_SECONDS[type]).toBe(seconds);
  });

  it('has the three limit types of the spec', () => {
    expect(WINDOW_TYPES).toEqual(['limit_daily', 'limit_weekly', 'limit_monthly']);
  });

  it('refuses limits under 100 minor units, and holds an allowed check for 15 minutes', () => {
    expect(MINIMUM_LIMIT_CENTS).toBe(100);
    expect(RESERVATION_HOLD_SECONDS).toBe(900);
  });
});
