import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { AML_RULES, RULE_CODES } from './aml.rules.js';
import { AmlDriver } from './aml.test-support.js';
import { HOUR, usd } from '../../../test/helpers/units.js';

describe('AML events count what really happened', () => {
  const suite = useSuite(() => AmlDriver.start());

  const flaggedRules = (user: string) => suite.current.flagged(user).map((e) => e.data.rules_triggered);
  const stored = (transactionId: string) => {
    const d = suite.current;
    return d.t.db
      .selectFrom('aml_events')
      .select(['status', 'fingerprint'])
      .where('tenant_id', '=', d.tenant.tenantId)
      .where('transaction_id', '=', transactionId)
      .executeTakeFirstOrThrow();
  };

  describe('R-006 links users by metadata.payment_method_fingerprint only', () => {
    it('three users paying by "card" without a fingerprint trip nothing, async or at a screen', async () => {
      const d = suite.current;
      const users = [d.newUser(), d.newUser(), d.newUser()];
      for (const user of users) {
        const deposit = await d.event(user, 'deposit', usd(20), { payment_method: 'card' });
        await d.event(user, 'withdrawal', usd(10), { payment_method: 'card', at: 60 });
        expect((await stored(deposit)).fingerprint).toBeNull();
      }
      await d.pass();
      expect(users.flatMap(flaggedRules)).toEqual([]);
      const screen = await d.screen(d.screenBody(users[0]!, usd(100), { payment_method: 'card' }));
      expect(screen.json()).toMatchObject({ decision: 'allow', rules_triggered: [] });
    });

    it('three users sharing one fingerprint still trip R-006, whatever their payment_method', async () => {
      const d = suite.current;
      const fingerprint = `tok-${d.newUser('card')}`;
      const users = [d.newUser(), d.newUser(), d.newUser()];
      for (const user of users) {
        await d.event(user, 'deposit', usd(20), {
          payment_method: 'card',
          metadata: { payment_method_fingerprint: fingerprint },
        });
      }
      await d.pass();
      expect(users.map(flaggedRules)).toEqual([[['R-006']], [['R-006']], [['R-006']]]);
      const screen = await d.screen(d.screenBody(users[0]!, usd(100)));
      expect(screen.json()).toMatchObject({ decision: 'reject', rules_triggered: ['R-006'] });
    });
  });

  describe('metadata.status: succeeded, failed or pending', () => {
    it('says in the catalogue what each rule counts', () => {
      const counts = Object.fromEntries(RULE_CODES.map((code) => [code, AML_RULES[code].counts]));
      expect(counts).toEqual({
        'R-001': 'attempts',
        'R-002': 'attempts',
        'R-003': 'succeeded',
        'R-004': 'succeeded',
        'R-005': 'succeeded',
        'R-006': 'attempts',
        'R-007': 'attempts',
        'R-008': 'succeeded',
        'R-009': 'succeeded',
      });
    });

    it('stores the outcome, succeeded when absent; any other value is 400 invalid_event', async () => {
      const d = suite.current;
      const user = d.newUser();
      expect((await stored(await d.event(user, 'deposit', usd(5)))).status).toBe('succeeded');
      const failed = await d.event(user, 'deposit', usd(5), { metadata: { status: 'failed' } });
      expect((await stored(failed)).status).toBe('failed');
      for (const status of ['declined', 'SUCCEEDED', '', 1, null]) {
        const response = await d.post(d.body(user, 'deposit', usd(5), { metadata: { status } }));
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: 'invalid_event', request_id: expect.any(String) });
      }
    });

    it('declined deposits count towards R-002 (attempts) but not towards R-009 (money that moved)', async () => {
      const d = suite.current;
      const user = d.newUser();
      // Five declined deposits of USD 2,500 within an hour: USD 12,500 attempted, nothing moved.
      for (const at of [-50 * 60, -40 * 60, -30 * 60, -20 * 60, -10 * 60]) {
        await d.event(user, 'deposit', usd(2_500), { at, metadata: { status: 'failed' } });
      }
      await d.pass();
      expect(flaggedRules(user)).toEqual([['R-002']]);
      expect(await d.rulesOf(user)).toEqual(['R-002']);

      // The screen applies the same rule: velocity from the attempts, no R-009 from money that never moved.
      const screen = await d.screen(d.screenBody(user, usd(100)));
      expect(screen.json()).toMatchObject({ decision: 'hold', rules_triggered: ['R-002'], risk_score: 60 });
    });

    it('two declined deposits of USD 5,000 are not USD 10,000 of activity; two succeeded ones are', async () => {
      const d = suite.current;
      const declined = d.newUser();
      await d.event(declined, 'deposit', usd(5_000), { at: -HOUR, metadata: { status: 'failed' } });
      await d.event(declined, 'deposit', usd(5_000), { metadata: { status: 'failed' } });
      const moved = d.newUser();
      await d.event(moved, 'deposit', usd(5_000), { at: -HOUR });
      await d.event(moved, 'deposit', usd(5_000), { metadata: { status: 'succeeded' } });
      await d.pass();
      expect(flaggedRules(declined)).toEqual([]);
      expect(flaggedRules(moved)).toEqual([['R-009']]);
      expect((await d.screen(d.screenBody(declined, usd(100)))).json()).toMatchObject({ decision: 'allow' });
    });

    it('a pending deposit counts once its outcome arrives as succeeded; a final outcome is not changed', async () => {
      const d = suite.current;
      const user = d.newUser();
      const body = d.body(user, 'deposit', usd(12_000), { metadata: { status: 'pending' } });
      expect((await d.post(body)).json().processing).toBe('queued');
      await d.pass();
      expect(flaggedRules(user)).toEqual([]);

      // The same event again is a duplicate; with its outcome it is settled and evaluated again.
      expect((await d.post(body)).json().processing).toBe('duplicate_already_queued');
      const settled = await d.post({ ...body, metadata: { status: 'succeeded' } });
      expect(settled.statusCode).toBe(202);
      expect(settled.json()).toMatchObject({ processing: 'queued', transaction_id: body.transaction_id });
      expect((await stored(body.transaction_id)).status).toBe('succeeded');
      await d.pass();
      expect(flaggedRules(user)).toEqual([['R-009']]);

      const reversed = await d.post({ ...body, metadata: { status: 'failed' } });
      expect(reversed.statusCode).toBe(409);
      expect(reversed.json().error).toBe('duplicate_event');
      expect((await stored(body.transaction_id)).status).toBe('succeeded');
    });

    it('a pending deposit reported failed never counts as money', async () => {
      const d = suite.current;
      const user = d.newUser();
      const body = d.body(user, 'deposit', usd(12_000), { metadata: { status: 'pending' } });
      await d.post(body);
      const failed = await d.post({ ...body, metadata: { status: 'failed' } });
      expect(failed.json().processing).toBe('queued');
      await d.pass();
      expect(flaggedRules(user)).toEqual([]);
      expect((await stored(body.transaction_id)).status).toBe('failed');
    });

    it('a declined deposit is never round-tripped, nor left unplayed (R-005, R-004)', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'deposit', usd(6_000), { at: -HOUR, metadata: { status: 'failed' } });
      await d.event(user, 'withdrawal', usd(6_000));
      await d.pass();
      await d.t.advance(25 * HOUR);
      await d.pass();
      expect(flaggedRules(user)).toEqual([]);
    });
  });
});
