import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { AmlDriver } from './aml.test-support.js';
import { DAY, HOUR, usd } from '../../../test/helpers/units.js';

/** counts and sums over a window ending at the event's time. */
describe('AML window rules', () => {
  const suite = useSuite(() => AmlDriver.start());

  /** One worker pass delivers exactly one aml.flagged for the user, with the spec's data. */
  const expectFlagged = async (userId: string, rules: string[], riskScore: number, action: string) => {
    const d = suite.current;
    await d.pass();
    const flagged = d.flagged(userId);
    expect(flagged).toHaveLength(1);
    const { cases, open_cases } = await d.cases(userId);
    expect(open_cases).toBe(1);
    expect(flagged[0]!.data).toEqual({
      case_id: cases[0]!.case_id,
      user_id: userId,
      rules_triggered: rules,
      risk_score: riskScore,
      recommended_action: action,
      transactions_to_review: expect.any(Array),
    });
    return flagged[0]!.data as { transactions_to_review: string[] };
  };
  const expectQuiet = async (userId: string) => {
    const d = suite.current;
    await d.pass();
    expect(d.flagged(userId)).toEqual([]);
    expect((await d.cases(userId)).cases).toEqual([]);
  };

  describe('R-002 velocity: 5 or more deposits in (T − 1 h, T]', () => {
    it('trips on the fifth deposit within the hour', async () => {
      const d = suite.current;
      const user = d.newUser();
      const ids = [];
      for (const at of [-3599, -2000, -1000, -500, 0])
        ids.push(await d.event(user, 'deposit', usd(50), { at }));
      const data = await expectFlagged(user, ['R-002'], 60, 'hold_and_review');
      expect([...data.transactions_to_review].sort()).toEqual([...ids].sort());
    });

    it('does not trip when the first deposit is exactly one hour old', async () => {
      const d = suite.current;
      const user = d.newUser();
      for (const at of [-3600, -2000, -1000, -500, 0]) await d.event(user, 'deposit', usd(50), { at });
      await expectQuiet(user);
    });
  });

  describe('R-003 structuring: 10 or more deposits within USD 100 of a tier threshold in 7 days', () => {
    it('trips on the tenth deposit near USD 2,000', async () => {
      const d = suite.current;
      const user = d.newUser();
      for (let i = 9; i >= 0; i--) await d.event(user, 'deposit', usd(1_950), { at: -i * 14 * HOUR });
      await expectFlagged(user, ['R-003'], 90, 'escalate');
    });

    it('does not trip with nine near the threshold and one just outside the band', async () => {
      const d = suite.current;
      const user = d.newUser();
      for (let i = 9; i >= 1; i--) await d.event(user, 'deposit', usd(2_099), { at: -i * 14 * HOUR });
      await d.event(user, 'deposit', usd(1_899.99));
      await expectQuiet(user);
    });
  });

  describe('R-008 dormant reactivation: 90 idle days, then over USD 5,000 in 24 h', () => {
    it('trips after exactly 90 idle days and USD 5,000.01 of activity', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'login', 0, { at: -90 * DAY - HOUR });
      await d.event(user, 'deposit', usd(3_000), { at: -HOUR });
      await d.event(user, 'wager', usd(2_000.01));
      await expectFlagged(user, ['R-008'], 60, 'hold_and_review');
    });

    it('does not trip one second short of 90 idle days', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'login', 0, { at: -90 * DAY - HOUR + 1 });
      await d.event(user, 'deposit', usd(3_000), { at: -HOUR });
      await d.event(user, 'wager', usd(2_000.01));
      await expectQuiet(user);
    });

    it('does not trip with exactly USD 5,000 of activity', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'login', 0, { at: -120 * DAY });
      await d.event(user, 'deposit', usd(3_000), { at: -HOUR });
      await d.event(user, 'wager', usd(2_000));
      await expectQuiet(user);
    });

    it('does not trip for a new user with no earlier event', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'deposit', usd(3_000), { at: -HOUR });
      await d.event(user, 'wager', usd(2_500));
      await expectQuiet(user);
    });
  });

  describe('R-009 aggregate threshold: USD 10,000 or more in the rolling window', () => {
    it('trips at USD 10,000 of deposits and wagers within 24 hours', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'deposit', usd(5_000), { at: -DAY + 1 });
      await d.event(user, 'wager', usd(5_000));
      await expectFlagged(user, ['R-009'], 70, 'hold_and_review');
    });

    it('does not trip at USD 9,999.99', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'deposit', usd(5_000), { at: -HOUR });
      await d.event(user, 'wager', usd(4_999.99));
      await expectQuiet(user);
    });

    it('does not trip when the deposit is exactly 24 hours old', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'deposit', usd(5_000), { at: -DAY });
      await d.event(user, 'wager', usd(5_000));
      await expectQuiet(user);
    });

    it("uses the tenant's own window, set in the back office", async () => {
      const d = suite.current;
      const other = await d.otherTenant();
      try {
        const set = await d.t.backoffice('PUT', `/tenants/${other.tenant.tenantId}/aml-settings`, {
          r009_window_hours: 48,
        });
        expect(set.statusCode).toBe(200);
        expect(set.json()).toEqual({
          tenant_id: other.tenant.tenantId,
          r009_window_hours: 48,
          r009_window_seconds: 172_800,
        });
        const read = await d.t.backoffice('GET', `/tenants/${other.tenant.tenantId}/aml-settings`);
        expect(read.json().r009_window_hours).toBe(48);

        // The same activity 30 hours apart: inside the other tenant's 48 hours, outside the default 24.
        const mine = d.newUser();
        const theirs = other.newUser();
        await d.event(mine, 'deposit', usd(5_000), { at: -30 * HOUR });
        await d.event(mine, 'wager', usd(5_000));
        await other.event(theirs, 'deposit', usd(5_000), { at: -30 * HOUR });
        await other.event(theirs, 'wager', usd(5_000));
        await d.pass();
        expect(d.flagged(mine)).toEqual([]);
        expect(other.flagged(theirs).map((e) => e.data.rules_triggered)).toEqual([['R-009']]);

        const invalid = await d.t.backoffice('PUT', `/tenants/${other.tenant.tenantId}/aml-settings`, {
          r009_window_hours: 0,
        });
        expect(invalid.statusCode).toBe(400);
        const missing = await d.t.backoffice('PUT', '/tenants/ten_missing/aml-settings', {
          r009_window_hours: 12,
        });
        expect(missing.statusCode).toBe(404);
      } finally {
        await other.receiver.close();
      }
    });
  });

  it('a repeated window pattern adds to the open case instead of opening another', async () => {
    const d = suite.current;
    const user = d.newUser();
    for (const at of [-600, -500, -400, -300, -200]) await d.event(user, 'deposit', usd(50), { at });
    await d.pass();
    expect(d.flagged(user)).toHaveLength(1);
    // More deposits within the hour, then a new burst two hours later (after R-002's cooldown).
    for (const at of [-100, 0]) await d.event(user, 'deposit', usd(50), { at });
    await d.t.advance(2 * HOUR);
    for (const at of [0, 60, 120, 180, 240]) await d.event(user, 'deposit', usd(50), { at });
    await d.pass();
    const { cases } = await d.cases(user);
    expect(cases).toHaveLength(1);
    expect(cases[0]!.rules_triggered).toEqual(['R-002']);
    expect(d.flagged(user)).toHaveLength(1);
  });
});
