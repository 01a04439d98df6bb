/**
 * How background work spends its slack instead of the players' time (ADR 0019): after each batch, a worker rests
 * in proportion to how busy the API processes are, up to three times the batch's own time, and no longer than lets
 * what is still waiting be done at the rate its deadline needs. A quiet service runs its background work at full
 * speed; a busy one at a quarter of it, or faster when the deadline needs; an item at its deadline is worked on at
 * once, however busy.
 */

/** Below this share of busy time the API processes are quiet: background work does not rest. */
export const QUIET_BUSY = 0.25;
/** From this share of busy time on, background work rests as long as its deadline allows. */
export const HEAVY_BUSY = 0.6;
/** Paced work aims to finish what waits this many times faster than its deadline strictly needs. */
export const PACE_SAFETY = 1.5;
/**
 * At most this many times as long as the batch took: under any load the work keeps a quarter of its own pace, so
 * it keeps up with what arrives, and waits are spread, not stored up for the deadline.
 */
export const MAX_REST_PER_WORK = 3;
/** The longest rest after one batch: a worker looks at the load and the backlog again at least this often. */
export const MAX_REST_MS = 2_000;

/** One kind of background work's state after a batch, as its worker sees it. */
export interface PacingState {
  /** The batch just done: how many items, and how long it took. */
  batch: { items: number; ms: number };
  /** Items still waiting (a lower bound is fine: it only makes the work faster). */
  waiting: number;
  /** The age of the oldest waiting item, and the age by which every item must be done (its deadline less the margin). */
  oldestAgeMs: number;
  deadlineMs: number;
  /** The busiest API process's share of time busy over its last sample (0 to 1); 0 when none reported. */
  foregroundBusy: number;
  /** Worker processes sharing the work: each does its share of the rate needed. */
  workers: number;
}

/** How busy the foreground is, as a factor from 0 (quiet: no rest) to 1 (heavy: the full rest the deadline allows). */
export function foregroundPressure(busy: number): number {
  return Math.min(1, Math.max(0, (busy - QUIET_BUSY) / (HEAVY_BUSY - QUIET_BUSY)));
}

/** The rest before the next batch (ms): 0 when nothing waits, the foreground is quiet or the deadline is here. */
export function restAfterBatch(state: PacingState): number {
  const { batch, waiting, oldestAgeMs, deadlineMs, workers } = state;
  const pressure = foregroundPressure(state.foregroundBusy);
  const timeLeftMs = deadlineMs - oldestAgeMs;
  if (waiting <= 0 || batch.items <= 0 || pressure === 0 || timeLeftMs <= 0) return 0;
  // This worker's share of the rate that finishes what waits by the oldest item's deadline, with the safety factor.
  const itemsPerMs = (waiting * PACE_SAFETY) / timeLeftMs / Math.max(1, workers);
  const rest = Math.min(batch.items / itemsPerMs - batch.ms, MAX_REST_PER_WORK * batch.ms);
  return Math.round(Math.min(MAX_REST_MS, Math.max(0, pressure * rest)));
}
