import { LIMIT_TYPES, WINDOW_SECONDS, type LimitType, type WindowType } from '../limits.rules.js';

/**
 * Time played and play sessions, as pure functions (docs/player-protection.md, "Play sessions and reality checks").
 * A session counts as played time from its start until it ends, or until SESSION_COUNTING_BOUND_SECONDS after its
 * start if it is never ended; a rolling window counts the overlap of each session with it. Times are milliseconds.
 */

/** Why a session is refused, strongest first: the order a player is told (and the status call's codes). */
export const REFUSAL_REASONS = ['self_excluded', 'timed_out', 'play_time_exhausted'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** A session never ended stops counting this long after its start: no one plays a day without a pause. */
export const SESSION_COUNTING_BOUND_SECONDS = 86_400;

/** A player's reality-check interval, and the service's default for a tenant that has set none (hourly). */
export const REALITY_CHECK_MIN_SECONDS = 300;
export const REALITY_CHECK_MAX_SECONDS = 7_200;
export const DEFAULT_REALITY_CHECK_SECONDS = 3_600;

/** A counted session: from its start to where it stops counting (its end, its bound, or now). */
export interface Played {
  start: number;
  stop: number;
}

export interface PlayTimeLimit {
  limit_type: LimitType;
  amount_seconds: number;
}

/** The facts a new session is judged on, at its receipt. */
export interface SessionFacts {
  selfExcluded: boolean;
  timedOut: boolean;
  playTimeExhausted: boolean;
}

/** The strongest reason that forbids play, or null when the session is allowed. */
export function refusalReason(facts: SessionFacts): RefusalReason | null {
  const holds: Record<RefusalReason, boolean> = {
    self_excluded: facts.selfExcluded,
    timed_out: facts.timedOut,
    play_time_exhausted: facts.playTimeExhausted,
  };
  return REFUSAL_REASONS.find((reason) => holds[reason]) ?? null;
}

/** Played time within [from, to]. */
export function playedBetween(sessions: Played[], from: number, to: number): number {
  return sessions.reduce((sum, s) => sum + Math.max(0, Math.min(s.stop, to) - Math.max(s.start, from)), 0);
}

/** Each session counted only up to `now`: what has been played so far. */
export const playedSoFar = (sessions: Played[], now: number): Played[] =>
  sessions.filter((s) => s.start < now).map((s) => ({ start: s.start, stop: Math.min(s.stop, now) }));

const windowMs = (type: WindowType) => WINDOW_SECONDS[type] * 1000;
const isWindow = (type: LimitType): type is WindowType => type !== 'limit_session';

/**
 * The first moment at or after `from` when played time in the rolling window ending then reaches `level` (up) or
 * falls to it (down). Played time in a window is piecewise linear in time, bending only where a session starts or
 * stops, or one of those moments leaves the window: between two bends the crossing is found exactly. Null if it
 * never does.
 */
export function firstCrossing(
  sessions: Played[],
  window: number,
  level: number,
  from: number,
  direction: 'up' | 'down',
): number | null {
  const at = (t: number) => playedBetween(sessions, t - window, t);
  const crossed = (value: number) => (direction === 'up' ? value >= level : value <= level);
  const bends = [...new Set(sessions.flatMap((s) => [s.start, s.stop, s.start + window, s.stop + window]))]
    .filter((t) => t > from)
    .sort((a, b) => a - b);
  let a = from;
  let fa = at(a);
  if (crossed(fa)) return from;
  for (const b of bends) {
    const fb = at(b);
    if (crossed(fb)) return a + Math.ceil(((level - fa) * (b - a)) / (fb - fa));
    [a, fa] = [b, fb];
  }
  return null;
}

/** Whether a window limit leaves less than a second to play now (remaining time is shown in whole seconds). */
export function isExhausted(limit: PlayTimeLimit, played: Played[], now: number): boolean {
  if (!isWindow(limit.limit_type)) return false;
  return remainingSeconds(limit, played, now) === 0;
}

/** What counts against the limit now: play in its window ending now, or for limit_session the longest open session. */
function usedMs(limit: PlayTimeLimit, played: Played[], now: number): number {
  const so = playedSoFar(played, now);
  if (isWindow(limit.limit_type)) return playedBetween(so, now - windowMs(limit.limit_type), now);
  return Math.max(0, ...so.filter((s) => s.stop === now).map((s) => s.stop - s.start));
}

/** Whole seconds played (spent) and left (remaining) under the limit now, as the listing shows them. */
export const spentSeconds = (limit: PlayTimeLimit, played: Played[], now: number) =>
  Math.floor(usedMs(limit, played, now) / 1000);

export const remainingSeconds = (limit: PlayTimeLimit, played: Played[], now: number) =>
  Math.max(0, Math.floor((limit.amount_seconds * 1000 - usedMs(limit, played, now)) / 1000));

/**
 * When the player may play again: the latest moment at which each exhausted window limit, counting what has been
 * played so far and nothing more, leaves a second to play again as old play leaves its window. Null when none is
 * exhausted.
 */
export function playFreedAt(limits: PlayTimeLimit[], played: Played[], now: number): number | null {
  const so = playedSoFar(played, now);
  const frees = limits
    .filter((limit) => isExhausted(limit, played, now))
    .map((limit) => {
      const type = limit.limit_type as WindowType;
      return firstCrossing(so, windowMs(type), limit.amount_seconds * 1000 - 1000, now, 'down')!;
    });
  return frees.length === 0 ? null : Math.max(...frees);
}

/**
 * Where the oldest counted play starts leaving the limit's window (time comes back from then, second by second);
 * null when nothing is counted, or for limit_session.
 */
export function playResetsAt(limit: PlayTimeLimit, played: Played[], now: number): number | null {
  if (!isWindow(limit.limit_type)) return null;
  const since = now - windowMs(limit.limit_type);
  const counted = playedSoFar(played, now).filter((s) => s.stop > since && s.stop > s.start);
  if (counted.length === 0) return null;
  return Math.min(...counted.map((s) => Math.max(s.start, since))) + windowMs(limit.limit_type);
}

/**
 * When a session starting at `start` runs out of play time, and under which limit: the first moment a window's
 * played time reaches its limit, counting this session and the player's other counted sessions (an open one as
 * running on to its bound), or the session's own length reaching limit_session. Null when no limit runs out before
 * the session stops counting. On a tie, the limit listed first in LIMIT_TYPES.
 */
export function sessionEndsAt(
  limits: PlayTimeLimit[],
  others: Played[],
  start: number,
): { at: number; limit_type: LimitType } | null {
  const bound = start + SESSION_COUNTING_BOUND_SECONDS * 1000;
  const sessions = [...others, { start, stop: bound }];
  const ends = limits
    .map((limit) => {
      const limitMs = limit.amount_seconds * 1000;
      const at = isWindow(limit.limit_type)
        ? firstCrossing(sessions, windowMs(limit.limit_type), limitMs, start, 'up')
        : start + limitMs;
      return { at, limit_type: limit.limit_type };
    })
    .filter((end): end is { at: number; limit_type: LimitType } => end.at !== null && end.at < bound)
    .sort((a, b) => a.at - b.at || LIMIT_TYPES.indexOf(a.limit_type) - LIMIT_TYPES.indexOf(b.limit_type));
  return ends[0] ?? null;
}

/** The next reality check after `now`, every `interval` seconds from the start; null once the session stops counting. */
export function nextRealityCheckAt(
  start: number,
  intervalSeconds: number | null,
  now: number,
  stop: number,
): number | null {
  if (intervalSeconds === null) return null;
  const interval = intervalSeconds * 1000;
  const next = start + (Math.floor(Math.max(0, now - start) / interval) + 1) * interval;
  return next < stop ? next : null;
}
