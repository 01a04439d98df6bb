import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { KycDriver } from './kyc.test-support.js';

// Every tier's ceiling in USD cents (inclusive), the tier that opens above it, and what that tier collects.
const CEILINGS = [
  ['tier_1', 20_001, 200_000, 'tier_2', ['government_id', 'selfie']],
  ['tier_2', 200_001, 2_000_000, 'tier_3', ['government_id', 'selfie', 'proof_of_address']],
  [
    'tier_3',
    2_000_001,
    10_000_000,
    'tier_4',
    ['government_id', 'selfie', 'proof_of_address', 'source_of_funds'],
  ],
] as const;

describe('KYC tier boundaries on the lifetime total', () => {
  const suite = useSuite(() => KycDriver.start(), { eachTest: (d) => d.newUser() });

  it.each(CEILINGS)(
    'verified at %s (opened by %i): cumulative + requested up to %i takes the fast path, one unit above needs %s',
    async (verified, opening, ceiling, next, documents) => {
      const bed = suite.current;
      const { start, tier, completed } = bed;
      bed.userId = `autoapprove-${bed.userId}`;
      // The sandbox approves at once: the user is verified at exactly this tier.
      expect((await start(opening)).json()).toMatchObject({
        required_tier: verified,
        withdrawal_held: false,
      });
      expect((await completed(ceiling - 5_000)).statusCode).toBe(201);
      expect(await tier()).toEqual({
        user_id: bed.userId,
        verified_tier: verified,
        verified_at: expect.any(String),
        max_withdrawal_cents: 5_000,
        cumulative_withdrawn_cents: ceiling - 5_000,
        next_tier_required_at_cents: ceiling + 1,
      });

      const within = await start(5_000);
      expect(within.statusCode).toBe(200);
      expect(within.json()).toMatchObject({
        kyc_check_id: null,
        required_tier: verified,
        required_documents: [],
        withdrawal_held: false,
        withdrawal_remaining_cents: 0,
      });

      const above = await start(5_001);
      expect(above.statusCode).toBe(201);
      expect(above.json()).toMatchObject({
        kyc_check_id: expect.stringMatching(/^kyc_/),
        required_tier: next,
        required_documents: documents,
      });
    },
  );

  it('tier_4 has no ceiling: any amount takes the fast path and nothing is left to count down', async () => {
    const bed = suite.current;
    const { start, tier, completed } = bed;
    bed.userId = `autoapprove-${bed.userId}`;
    expect((await start(10_000_001)).json()).toMatchObject({ required_tier: 'tier_4' });
    await completed(500_000_000);
    const huge = await start(1_000_000_000_000);
    expect(huge.statusCode).toBe(200);
    expect(huge.json()).toMatchObject({
      kyc_check_id: null,
      required_tier: 'tier_4',
      withdrawal_held: false,
      withdrawal_remaining_cents: null,
    });
    expect(await tier()).toMatchObject({
      verified_tier: 'tier_4',
      max_withdrawal_cents: null,
      cumulative_withdrawn_cents: 500_000_000,
      next_tier_required_at_cents: null,
    });
  });

  it('tier_0: 20,000 lifetime is the last fast-path unit, 20,001 opens tier_1, whatever mix of reported and requested', async () => {
    const { start, completed } = suite.current;
    await completed(19_999);
    expect((await start(1)).json()).toMatchObject({ kyc_check_id: null, required_tier: 'tier_0' });
    const above = await start(2);
    expect(above.statusCode).toBe(201);
    expect(above.json()).toMatchObject({
      required_tier: 'tier_1',
      required_documents: ['email_otp', 'phone_otp'],
    });
  });
});
