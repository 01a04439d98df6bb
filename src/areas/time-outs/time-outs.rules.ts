/** The time-outs' rules as data (docs/player-protection.md#time-outs). */

/** The durations a player may take a break for, each a fixed span from receipt. */
export const TIME_OUT_DURATIONS = ['duration_24h', 'duration_7d', 'duration_30d', 'duration_6w'] as const;
export type TimeOutDuration = (typeof TIME_OUT_DURATIONS)[number];

const HOUR = 3600;
const DAY = 24 * HOUR;

/** Fixed spans, not calendar ones: a break of 7 days is 168 hours whatever the clocks do. */
export const DURATION_SECONDS: Record<TimeOutDuration, number> = {
  duration_24h: 24 * HOUR,
  duration_7d: 7 * DAY,
  duration_30d: 30 * DAY,
  duration_6w: 42 * DAY,
};

export const endsAt = (duration: TimeOutDuration, startsAt: Date): Date =>
  new Date(startsAt.getTime() + DURATION_SECONDS[duration] * 1000);

/** The time-out in force, as far as a request needs it. */
export interface TimeOutInForce {
  duration: TimeOutDuration;
  ends_at: Date;
}

/**
 * What a request does, given the time-out in force (if any) at its receipt:
 * - start: none in force, a new time-out (201);
 * - repeat: the same duration as the one in force, answered with it (200), whenever it comes (the natural key);
 * - keep: it would end no later than the one in force, which stands (200): a time-out is never shortened;
 * - extend: it would end later, a new time-out supersedes the one in force (201).
 */
export type TimeOutDecision = 'start' | 'repeat' | 'keep' | 'extend';

export function decideTimeOut(
  inForce: TimeOutInForce | undefined,
  duration: TimeOutDuration,
  now: Date,
): TimeOutDecision {
  if (!inForce || inForce.ends_at <= now) return 'start';
  if (inForce.duration === duration) return 'repeat';
  return endsAt(duration, now) > inForce.ends_at ? 'extend' : 'keep';
}

/** The reason recorded when the request gives none, as for a self-exclusion. */
export const DEFAULT_REASON = 'self_initiated';
