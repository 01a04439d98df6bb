/** The deposit-limit rules of the spec, as data. */

export const LIMIT_TYPES = ['limit_daily', 'limit_weekly', 'limit_monthly'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];

/** Rolling windows: 24 hours, 7 days, 30 days, ending now. */
export const WINDOW_SECONDS: Record<LimitType, number> = {
  limit_daily: 86_400,
  limit_weekly: 7 * 86_400,
  limit_monthly: 30 * 86_400,
};
export const LONGEST_WINDOW_SECONDS = WINDOW_SECONDS.limit_monthly;

/** Below this many minor units a limit is 422 below_minimum (one unit of the major currency). */
export const MINIMUM_LIMIT_CENTS = 100;

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

/** Releases are remembered this long (a repeated release answers the same); lapsed holds are purged after an hour. */
export const RELEASE_RETENTION_SECONDS = LONGEST_WINDOW_SECONDS;
export const LAPSED_HOLD_RETENTION_SECONDS = 3_600;
