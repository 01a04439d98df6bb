/** The player status call's rules as data (docs/player-protection.md#player-status). */

/** The restrictions a status may list, in the order it lists them. */
export const RESTRICTION_CODES = [
  'self_excluded',
  'timed_out',
  'play_time_exhausted',
  'account_under_review',
  'kyc_required',
  'safer_gambling_review',
] as const;
export type RestrictionCode = (typeof RESTRICTION_CODES)[number];

export const PERMISSIONS = ['can_play', 'can_deposit', 'can_withdraw', 'marketing_allowed'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Which permissions each restriction takes away (true: blocked). The reasons, in the docs' table:
 * - self_excluded and timed_out: no play, no deposits, no marketing (UK LCCP SR 3.5.3/3.5.4, RTS 12), but the
 *   player's own balance may always be withdrawn: a break must never trap the player's money.
 * - play_time_exhausted: the player's own time limit (RTS 13) stops play, and no marketing urges more of it;
 *   deposits stay with the deposit limits and withdrawals stay open.
 * - account_under_review (a sanctions hit or an AML case): every transaction is held, play included (a payout would
 *   make funds available), and no marketing; one code for all, so it says nothing of why (tipping-off).
 * - kyc_required: the withdrawal waits on verification; play, deposits and marketing go on.
 * - safer_gambling_review: the tenant's policy stops deposits of a high-level player until the operator records an
 *   interaction, and no marketing urges them on; play and withdrawals go on (the player's own money stays theirs).
 */
export const BLOCKS: Record<RestrictionCode, Record<Permission, boolean>> = {
  self_excluded: { can_play: true, can_deposit: true, can_withdraw: false, marketing_allowed: true },
  timed_out: { can_play: true, can_deposit: true, can_withdraw: false, marketing_allowed: true },
  play_time_exhausted: { can_play: true, can_deposit: false, can_withdraw: false, marketing_allowed: true },
  account_under_review: { can_play: true, can_deposit: true, can_withdraw: true, marketing_allowed: true },
  kyc_required: { can_play: false, can_deposit: false, can_withdraw: true, marketing_allowed: false },
  safer_gambling_review: { can_play: false, can_deposit: true, can_withdraw: false, marketing_allowed: true },
};

/**
 * What a player may do under these restrictions: each permission holds unless one of them blocks it. The
 * safer-gambling level stops marketing without a restriction of its own (marketingStopped): the player is not
 * restricted, the operator just may not market to them.
 */
export function permissionsUnder(
  codes: readonly RestrictionCode[],
  marketingStopped = false,
): Record<Permission, boolean> {
  const permissions = Object.fromEntries(
    PERMISSIONS.map((permission) => [permission, !codes.some((code) => BLOCKS[code][permission])]),
  ) as Record<Permission, boolean>;
  if (marketingStopped) permissions.marketing_allowed = false;
  return permissions;
}
