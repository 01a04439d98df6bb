import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { AmlDriver } from './aml.test-support.js';
import { DAY, HOUR, usd } from '../../../test/helpers/units.js';

/** patterns with their own identity (a deposit, a pair, a fingerprint, a session). */
describe('AML pattern rules', () => {
  const suite = useSuite(() => AmlDriver.start());

  const flaggedRules = (userId: string) => suite.current.flagged(userId).map((e) => e.data.rules_triggered);

  describe('R-004 minimal play: deposit over USD 5,000, under 5% wagered in the next 24 h', () => {
    it('trips when the window closes with under 5% wagered', async () => {
      const d = suite.current;
      const user = d.newUser();
      const deposit = await d.event(user, 'deposit', usd(5_000.01));
      await d.t.advance(HOUR);
      await d.event(user, 'wager', usd(250));
      await d.pass();
      expect(d.flagged(user)).toEqual([]);
      const job = await d.t.db
        .selectFrom('scheduled_jobs')
        .selectAll()
        .where('kind', '=', 'aml.r004')
        .execute();
      expect(job.length).toBeGreaterThan(0);

      await d.t.advance(DAY - HOUR);
      await d.pass();
      const [flag] = d.flagged(user);
      expect(flag?.data).toMatchObject({
        rules_triggered: ['R-004'],
        risk_score: 70,
        transactions_to_review: [deposit],
      });
    });

    it('trips on a lone deposit of USD 5,000.01 once 24 hours have passed on the service clock', async () => {
      const d = suite.current;
      const user = d.newUser();
      const deposit = await d.event(user, 'deposit', usd(5_000.01));
      await d.pass();
      await d.t.advance(DAY - 1);
      await d.pass();
      expect(d.flagged(user)).toEqual([]);
      await d.t.advance(1);
      await d.pass();
      expect(d.flagged(user).map((e) => e.data.transactions_to_review)).toEqual([[deposit]]);
    });

    it('does not trip with 5% wagered (USD 250.01 of USD 5,000.01)', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'deposit', usd(5_000.01));
      await d.t.advance(HOUR);
      await d.event(user, 'wager', usd(250.01));
      await d.pass();
      await d.t.advance(DAY - HOUR);
      await d.pass();
      expect(d.flagged(user)).toEqual([]);
    });

    it('does not trip for a deposit of exactly USD 5,000', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'deposit', usd(5_000));
      await d.pass();
      await d.t.advance(DAY);
      await d.pass();
      expect(d.flagged(user)).toEqual([]);
    });
  });

  describe('R-005 round-tripping: deposit and withdrawal within 5% and within 24 h', () => {
    it('trips from the withdrawal leg at exactly 5% apart, exactly 24 hours later', async () => {
      const d = suite.current;
      const user = d.newUser();
      const deposit = await d.event(user, 'deposit', usd(1_000));
      await d.pass();
      await d.t.advance(DAY);
      const withdrawal = await d.event(user, 'withdrawal', usd(950));
      await d.pass();
      const [flag] = d.flagged(user);
      expect(flag?.data).toMatchObject({
        rules_triggered: ['R-005'],
        risk_score: 80,
        recommended_action: 'escalate',
      });
      expect(flag?.data.transactions_to_review).toEqual([deposit, withdrawal]);
    });

    it('trips from the deposit leg when the withdrawal came first', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'withdrawal', usd(2_000), { at: -2 * HOUR });
      await d.pass();
      await d.event(user, 'deposit', usd(2_050));
      await d.pass();
      expect(flaggedRules(user)).toEqual([['R-005']]);
    });

    it('does not trip just over 5% apart, nor 24 hours and a second apart', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'deposit', usd(1_000));
      await d.t.advance(HOUR);
      await d.event(user, 'withdrawal', usd(949.99));
      await d.t.advance(DAY + 1 - HOUR);
      await d.event(user, 'withdrawal', usd(1_000));
      await d.pass();
      expect(d.flagged(user)).toEqual([]);
    });
  });

  describe('R-006 multi-account: one payment method fingerprint on 3 or more users', () => {
    it('trips for each of the three users sharing metadata.payment_method_fingerprint', async () => {
      const d = suite.current;
      const fingerprint = `fp-${d.newUser('card')}`;
      const users = [d.newUser(), d.newUser(), d.newUser()];
      await d.event(users[0]!, 'deposit', usd(20), { metadata: { payment_method_fingerprint: fingerprint } });
      await d.event(users[1]!, 'deposit', usd(20), { metadata: { payment_method_fingerprint: fingerprint } });
      await d.pass();
      expect(users.flatMap(flaggedRules)).toEqual([]);
      await d.event(users[2]!, 'withdrawal', usd(20), {
        metadata: { payment_method_fingerprint: fingerprint },
      });
      await d.pass();
      expect(users.map(flaggedRules)).toEqual([[['R-006']], [['R-006']], [['R-006']]]);

      // A fourth user of the card trips too; the first three are not flagged again.
      const fourth = d.newUser();
      await d.event(fourth, 'deposit', usd(20), { metadata: { payment_method_fingerprint: fingerprint } });
      await d.pass();
      expect([...users, fourth].map((u) => flaggedRules(u).length)).toEqual([1, 1, 1, 1]);
    });

    it('does not trip on two users, nor count another tenant or wagers', async () => {
      const d = suite.current;
      const fingerprint = `fp-${d.newUser('card')}`;
      const other = await d.otherTenant();
      try {
        const [a, b] = [d.newUser(), d.newUser()];
        await d.event(a, 'deposit', usd(20), { metadata: { payment_method_fingerprint: fingerprint } });
        await d.event(b, 'deposit', usd(20), { metadata: { payment_method_fingerprint: fingerprint } });
        await d.event(d.newUser(), 'wager', usd(20), {
          metadata: { payment_method_fingerprint: fingerprint },
        });
        await other.event(other.newUser(), 'deposit', usd(20), {
          metadata: { payment_method_fingerprint: fingerprint },
        });
        await d.pass();
        expect([...flaggedRules(a), ...flaggedRules(b)]).toEqual([]);
      } finally {
        await other.receiver.close();
      }
    });
  });

  describe('R-007 geographic anomaly: login country differs from deposit country in one session', () => {
    it('trips when the deposit card country differs from the login IP country', async () => {
      const d = suite.current;
      const user = d.newUser();
      const session = `s-${user}`;
      const login = await d.event(user, 'login', 0, { metadata: { session_id: session, ip_country: 'GB' } });
      const deposit = await d.event(user, 'deposit', usd(20), {
        at: 60,
        metadata: { session_id: session, card_country: 'FR', ip_country: 'GB' },
      });
      await d.pass();
      const [flag] = d.flagged(user);
      expect(flag?.data).toMatchObject({
        rules_triggered: ['R-007'],
        risk_score: 50,
        recommended_action: 'hold_and_review',
      });
      expect(flag?.data.transactions_to_review).toEqual([login, deposit]);
    });

    it('uses the deposit IP country when there is no card country (login evaluated after the deposit)', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'deposit', usd(20), { metadata: { session_id: `s-${user}`, ip_country: 'DE' } });
      await d.pass();
      await d.event(user, 'login', 0, { at: -60, metadata: { session_id: `s-${user}`, ip_country: 'GB' } });
      await d.pass();
      expect(flaggedRules(user)).toEqual([['R-007']]);
    });

    it('does not trip for the same country, or across different sessions', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'login', 0, { metadata: { session_id: `a-${user}`, ip_country: 'GB' } });
      await d.event(user, 'deposit', usd(20), {
        metadata: { session_id: `a-${user}`, card_country: 'GB', ip_country: 'FR' },
      });
      await d.event(user, 'deposit', usd(20), { metadata: { session_id: `b-${user}`, card_country: 'FR' } });
      await d.pass();
      expect(d.flagged(user)).toEqual([]);
    });
  });
});
