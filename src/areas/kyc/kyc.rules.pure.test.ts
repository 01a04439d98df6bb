import { describe, expect, it } from 'vitest';
import {
  higherOf,
  KYC_TIER_THRESHOLDS_USD_CENTS,
  ruleOf,
  tierFor,
  TIERS,
  waitsOnPlayer,
  isOpen,
} from './kyc.rules.js';

/** The KYC tier table of the spec and docs/kyc.md, cell by cell, each value written from the docs. */
describe('KYC tiers', () => {
  it.each([
    ['tier_0', 20_000, [], 'immediate'],
    ['tier_1', 200_000, ['email_otp', 'phone_otp'], '15 minutes'],
    ['tier_2', 2_000_000, ['government_id', 'selfie'], '24 hours'],
    ['tier_3', 10_000_000, ['government_id', 'selfie', 'proof_of_address'], '48 hours'],
    ['tier_4', null, ['government_id', 'selfie', 'proof_of_address', 'source_of_funds'], '72 hours'],
  ] as const)(
    '%s covers lifetime totals up to %s USD cents and collects %j (%s)',
    (tier, ceiling, documents, clear) => {
      expect(ruleOf(tier)).toEqual({
        tier,
        ceilingUsdCents: ceiling,
        documents,
        estimatedClearTime: clear,
      });
    },
  );

  it('has the five tiers in ascending order', () => {
    expect(TIERS.map((t) => t.tier)).toEqual(['tier_0', 'tier_1', 'tier_2', 'tier_3', 'tier_4']);
  });

  // Every boundary is inclusive: the ceiling is the tier's own, one cent more needs the next.
  it.each([
    [0, 'tier_0'],
    [20_000, 'tier_0'],
    [20_001, 'tier_1'],
    [200_000, 'tier_1'],
    [200_001, 'tier_2'],
    [2_000_000, 'tier_2'],
    [2_000_001, 'tier_3'],
    [10_000_000, 'tier_3'],
    [10_000_001, 'tier_4'],
    [1_000_000_000_000, 'tier_4'],
  ] as const)('a lifetime total of %i USD cents requires %s', (total, tier) => {
    expect(tierFor(total)).toBe(tier);
  });

  it("gives AML's structuring rule the four ceilings as thresholds", () => {
    expect(KYC_TIER_THRESHOLDS_USD_CENTS).toEqual([20_000, 200_000, 2_000_000, 10_000_000]);
  });

  it('never moves a verified tier down', () => {
    expect(higherOf('tier_2', 'tier_1')).toBe('tier_2');
    expect(higherOf('tier_1', 'tier_3')).toBe('tier_3');
  });

  it.each([
    ['not_started', true, true],
    ['in_progress', true, true],
    ['pending_review', true, false],
    ['approved', false, false],
    ['rejected', false, false],
    ['expired', false, false],
  ] as const)('%s: open %s, waiting on the player (so abandoned after 7 days) %s', (status, open, player) => {
    expect(isOpen(status)).toBe(open);
    expect(waitsOnPlayer(status)).toBe(player);
  });
});
