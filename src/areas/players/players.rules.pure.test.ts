import { describe, expect, it } from 'vitest';
import {
  BLOCKS,
  PERMISSIONS,
  permissionsUnder,
  RESTRICTION_CODES,
  type RestrictionCode,
} from './players.rules.js';

const ALL_ALLOWED = { can_play: true, can_deposit: true, can_withdraw: true, marketing_allowed: true };

/** The player status decision table of docs/player-protection.md, cell by cell. */
describe('player status decision table', () => {
  // [restriction, can_play, can_deposit, can_withdraw, marketing_allowed] under that restriction alone.
  const TABLE: [RestrictionCode, boolean, boolean, boolean, boolean][] = [
    ['self_excluded', false, false, true, false],
    ['timed_out', false, false, true, false],
    ['play_time_exhausted', false, true, true, false],
    ['account_under_review', false, false, false, false],
    ['kyc_required', true, true, false, true],
    ['safer_gambling_review', true, false, true, false],
  ];

  it('covers every restriction code once', () => {
    expect(TABLE.map(([code]) => code)).toEqual([...RESTRICTION_CODES]);
  });

  it.each(TABLE.flatMap(([code, ...allowed]) => PERMISSIONS.map((p, i) => [code, p, allowed[i]!] as const)))(
    '%s: %s is %s',
    (code, permission, allowed) => {
      expect(permissionsUnder([code])[permission]).toBe(allowed);
      expect(BLOCKS[code][permission]).toBe(!allowed);
    },
  );

  it('nothing restricts a player with no restriction', () => {
    expect(permissionsUnder([])).toEqual(ALL_ALLOWED);
  });

  it("a safer-gambling level at the policy's stops marketing alone, without a restriction", () => {
    expect(permissionsUnder([], true)).toEqual({ ...ALL_ALLOWED, marketing_allowed: false });
    expect(permissionsUnder(['kyc_required'], true)).toEqual({
      ...permissionsUnder(['kyc_required']),
      marketing_allowed: false,
    });
  });

  it('restrictions add up: a permission holds only if none of them blocks it', () => {
    expect(permissionsUnder(['kyc_required', 'play_time_exhausted'])).toEqual({
      can_play: false,
      can_deposit: true,
      can_withdraw: false,
      marketing_allowed: false,
    });
    expect(permissionsUnder(['timed_out', 'self_excluded'])).toEqual(permissionsUnder(['self_excluded']));
    expect(permissionsUnder([...RESTRICTION_CODES])).toEqual({
      can_play: false,
      can_deposit: false,
      can_withdraw: false,
      marketing_allowed: false,
    });
  });
});
