import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY, HOUR, usd } from '../../../test/helpers/units.js';
import { MarkersDriver } from './safer-gambling.markers.test-support.js';

/**
 * Net deposits (succeeded deposits less succeeded withdrawals) against the tenant's financial profile, the UK's by
 * default (GBP 150 in 30 days light; GBP 1,000 in 24 hours or GBP 2,000 in 90 days enhanced), converted at the
 * stored rates: here GBP 1 = USD 1.25, EUR 1 = USD 1.10.
 */
describe('Financial risk checks', () => {
  const suite = useSuite(async () => {
    const d = await MarkersDriver.start();
    await d.rate('GBP', 1.25);
    await d.rate('EUR', 1.1);
    return d;
  });

  const checks = async (userId: string) => {
    const d = suite.current;
    await d.pass();
    return d.received('player.financial_check_required', userId).map((e) => e.data);
  };

  it('calls for a light check at GBP 150 of net deposits in 30 days, made in USD', async () => {
    const d = suite.current;
    const user = d.newUser();
    await d.deposit(user, usd(100), -20 * DAY);
    await d.deposit(user, usd(87.5));
    expect(await checks(user)).toEqual([
      { user_id: user, level: 'light', net_deposits_cents: 15_000, currency: 'GBP', window: 'rolling_30d' },
    ]);
  });

  it('does not call for one a cent below, nor count failed deposits, and withdrawals lower the net', async () => {
    const d = suite.current;
    const user = d.newUser();
    await d.deposit(user, usd(187.49));
    expect(await checks(user)).toEqual([]);
    const other = d.newUser();
    await d.event(other, 'withdrawal', usd(50), { at: -HOUR });
    await d.failedDeposit(other, -1);
    await d.deposit(other, usd(237.49));
    expect(await checks(other)).toEqual([]);
  });

  it('does not count a deposit exactly 30 days before', async () => {
    const d = suite.current;
    const user = d.newUser();
    await d.deposit(user, usd(100), -30 * DAY);
    await d.deposit(user, usd(87.5));
    expect(await checks(user)).toEqual([]);
  });

  it('converts deposits in EUR at their USD value into GBP', async () => {
    const d = suite.current;
    const user = d.newUser();
    // EUR 170.45 = USD 187.50 (to the cent) = GBP 150.00; EUR 170.44 = USD 187.48 = GBP 149.98.
    await d.deposit(user, 17_045, 0, 'EUR');
    expect(await checks(user)).toEqual([
      { user_id: user, level: 'light', net_deposits_cents: 15_000, currency: 'GBP', window: 'rolling_30d' },
    ]);
    const below = d.newUser();
    await d.deposit(below, 17_044, 0, 'EUR');
    expect(await checks(below)).toEqual([]);
  });

  it('calls for an enhanced check at GBP 1,000 in 24 hours, with the light one', async () => {
    const d = suite.current;
    const user = d.newUser();
    await d.deposit(user, usd(1_250));
    const found = await checks(user);
    expect(found).toHaveLength(2);
    expect(found).toEqual(
      expect.arrayContaining([
        {
          user_id: user,
          level: 'light',
          net_deposits_cents: 100_000,
          currency: 'GBP',
          window: 'rolling_30d',
        },
        {
          user_id: user,
          level: 'enhanced',
          net_deposits_cents: 100_000,
          currency: 'GBP',
          window: 'rolling_24h',
        },
      ]),
    );
  });

  it('calls for an enhanced check at GBP 2,000 in 90 days', async () => {
    const d = suite.current;
    const user = d.newUser();
    await d.deposit(user, usd(2_000), -80 * DAY);
    await d.deposit(user, usd(500));
    expect(await checks(user)).toEqual(
      expect.arrayContaining([
        {
          user_id: user,
          level: 'enhanced',
          net_deposits_cents: 200_000,
          currency: 'GBP',
          window: 'rolling_90d',
        },
      ]),
    );
  });

  it('calls once per player, level and window until the window has run again', async () => {
    const d = suite.current;
    const user = d.newUser();
    await d.deposit(user, usd(187.5));
    expect(await checks(user)).toHaveLength(1);
    await d.t.advance(DAY);
    await d.deposit(user, usd(10));
    expect(await checks(user)).toHaveLength(1);
    await d.t.advance(29 * DAY);
    await d.deposit(user, usd(187.5));
    const again = await checks(user);
    expect(again).toHaveLength(2);
    // The deposit of 30 days ago has left the window: USD 10 + USD 187.50 = GBP 158.00.
    expect(again[1]).toMatchObject({ level: 'light', window: 'rolling_30d', net_deposits_cents: 15_800 });
  });

  it("follows the tenant's profile: its currency and thresholds", async () => {
    const d = await suite.current.otherTenant();
    await d.settings({
      financial_profile: {
        currency: 'EUR',
        thresholds: [{ level: 'light', window: 'rolling_30d', amount_cents: 10_000 }],
      },
    });
    const user = d.newUser();
    await d.deposit(user, usd(110));
    await d.pass();
    expect(d.received('player.financial_check_required', user).map((e) => e.data)).toEqual([
      { user_id: user, level: 'light', net_deposits_cents: 10_000, currency: 'EUR', window: 'rolling_30d' },
    ]);
  });
});
