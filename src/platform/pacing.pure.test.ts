import { describe, expect, it } from 'vitest';
import {
  foregroundPressure,
  MAX_REST_MS,
  MAX_REST_PER_WORK,
  PACE_SAFETY,
  restAfterBatch,
  type PacingState,
} from './pacing.js';

// 200 items done in 400 ms; 10,000 waiting, the oldest 60 s old, each due within 240 s; one worker, the API busy.
const BUSY: PacingState = {
  batch: { items: 200, ms: 400 },
  waiting: 10_000,
  oldestAgeMs: 60_000,
  deadlineMs: 240_000,
  foregroundBusy: 0.9,
  workers: 1,
};

describe('pacing background work against its deadline', () => {
  it('reads the foreground from quiet (no pressure) to heavy (full pressure)', () => {
    expect([0, 0.25, 0.425, 0.6, 1].map(foregroundPressure)).toEqual([0, 0, 0.5, 1, 1]);
  });

  it.each([
    ['the foreground is quiet', { foregroundBusy: 0.2 }],
    ['nothing waits', { waiting: 0 }],
    ['the batch found nothing', { batch: { items: 0, ms: 3 } }],
    ['the oldest item is at its deadline', { oldestAgeMs: 240_000 }],
    ['the oldest item is past its deadline', { oldestAgeMs: 300_000 }],
    ['the batch alone took longer than the rate needs', { waiting: 200_000 }],
  ])('does not rest when %s', (_, change) => {
    expect(restAfterBatch({ ...BUSY, ...change })).toBe(0);
  });

  it('rests so that what waits is done at the rate the deadline needs, with the safety factor', () => {
    // 40,000 × 1.5 items in 180 s left: one batch of 200 every 600 ms, 400 ms of it working.
    const period = 200 / ((40_000 * PACE_SAFETY) / 180_000);
    expect(restAfterBatch({ ...BUSY, waiting: 40_000 })).toBe(Math.round(period - 400));
    expect(restAfterBatch({ ...BUSY, waiting: 30_000 })).toBe(Math.round((period * 4) / 3 - 400));
  });

  it('rests at most three times as long as the batch took: the work keeps a quarter of its pace', () => {
    expect(restAfterBatch({ ...BUSY, waiting: 1_000 })).toBe(MAX_REST_PER_WORK * 400);
    expect(restAfterBatch({ ...BUSY, waiting: 1_000, batch: { items: 200, ms: 100 } })).toBe(300);
  });

  it('rests less as the foreground quietens and as the deadline comes closer', () => {
    const heavy = restAfterBatch({ ...BUSY, waiting: 40_000 });
    expect(restAfterBatch({ ...BUSY, waiting: 40_000, foregroundBusy: 0.425 })).toBe(Math.round(heavy / 2));
    const later = restAfterBatch({ ...BUSY, waiting: 40_000, oldestAgeMs: 100_000 });
    expect(later).toBeLessThan(heavy);
    expect(later).toBeGreaterThan(0);
  });

  it('shares the rate among the workers: each of two rests as long as its half of the rate allows', () => {
    const one = restAfterBatch({ ...BUSY, waiting: 50_000 });
    const two = restAfterBatch({ ...BUSY, waiting: 50_000, workers: 2 });
    expect(two).toBe(2 * one + 400);
  });

  it('never rests longer than the longest rest, so a worker sees a change of load soon', () => {
    expect(restAfterBatch({ ...BUSY, waiting: 10, batch: { items: 200, ms: 5_000 } })).toBe(MAX_REST_MS);
  });
});
