/** The player limits' rules: the spec's deposit limits, and the kinds that share their lifecycle, as data. */

/**
 * deposit: the spec's; loss: net loss (stakes less payouts); wager: total stakes; play_time: time played, in
 * seconds. Every kind follows the deposit limit's lifecycle (docs/player-protection.md).
 */
export const LIMIT_KINDS = ['deposit', 'loss', 'wager', 'play_time'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
/** The kinds a stake counts toward (the wager check). */
export const STAKE_KINDS = ['loss', 'wager'] as const satisfies readonly LimitKind[];
export type StakeKind = (typeof STAKE_KINDS)[number];

/** The rolling windows, and limit_session: the longest single session (play_time only). */
export const LIMIT_TYPES = ['limit_daily', 'limit_weekly', 'limit_monthly', 'limit_session'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];
export type WindowType = Exclude<LimitType, 'limit_session'>;
export const WINDOW_TYPES = [
  'limit_daily',
  'limit_weekly',
  'limit_monthly',
] as const satisfies readonly WindowType[];

/** Rolling windows: 24 hours, 7 days, 30 days, ending now. */
export const WINDOW_SECONDS: Record<WindowType, number> = {
  limit_daily: 86_400,
  limit_weekly: 7 * 86_400,
  limit_monthly: 30 * 86_400,
};
/** A window's name in the player's messages (the checks' user_message). */
export const WINDOW_WORDS: Record<WindowType, string> = {
  limit_daily: 'daily',
  limit_weekly: 'weekly',
  limit_monthly: 'monthly',
};
export const LONGEST_WINDOW_SECONDS = WINDOW_SECONDS.limit_monthly;

/** Below this many minor units a limit is 422 below_minimum (one unit of the major currency). */
export const MINIMUM_LIMIT_CENTS = 100;
/** Below this many seconds a play_time limit is 422 below_minimum. */
export const MINIMUM_LIMIT_SECONDS = 300;

/** Whether a kind's limit types include limit_session (time limits only). */
export const takesLimitType = (kind: LimitKind, type: LimitType) =>
  type !== 'limit_session' || kind === 'play_time';

/**
 * Cooling-off for increases, by the new amount as a multiple of the limit in force. Exactly 2x and exactly 5x
 * fall in the lower tier. First-time sets and decreases are instant.
 */
const INCREASE_COOLOFF: readonly { upToMultiple: number; cooloffSeconds: number }[] = [
  { upToMultiple: 2, cooloffSeconds: 86_400 },
  { upToMultiple: 5, cooloffSeconds: 172_800 },
  { upToMultiple: Infinity, cooloffSeconds: 604_800 },
];

export function increaseCooloffSeconds(currentCents: number, requestedCents: number): number {
  // Integer comparison (requested <= k × current) keeps the boundaries exact.
  return INCREASE_COOLOFF.find((tier) => requestedCents <= tier.upToMultiple * currentCents)!.cooloffSeconds;
}

/**
 * How long an allowed check holds its amount for the deposit's commit: 15 minutes. A card payment's authorisation,
 * 3-D Secure challenge included, completes within a few minutes (issuers time a challenge out at about 10); a
 * hold past that only blocks a player whose deposit was abandoned without a release.
 */
export const RESERVATION_HOLD_SECONDS = 15 * 60;

/**
 * How long an allowed wager check holds its stake: until a wager event of that amount is acknowledged for the
 * player (the stake counts from the event from then on), or two minutes. A bet is placed seconds after its check;
 * a hold past that only narrows the room of a player whose bet was not placed.
 */
export const STAKE_HOLD_SECONDS = 120;
