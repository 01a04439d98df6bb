import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { RULE_CODES } from './aml.rules.js';
import { AmlDriver } from './aml.test-support.js';
import { HOUR, usd } from '../../../test/helpers/units.js';

describe('POST /v1/aml/screen', () => {
  const suite = useSuite(() => AmlDriver.start());

  /** Puts an R-007 finding (score 50) in a user's history. */
  const geographicAnomaly = async (user: string) => {
    const d = suite.current;
    await d.event(user, 'login', 0, { at: -HOUR, metadata: { session_id: `s-${user}`, ip_country: 'GB' } });
    await d.event(user, 'deposit', usd(20), {
      at: -HOUR + 60,
      metadata: { session_id: `s-${user}`, card_country: 'FR' },
    });
  };

  it('allows a clean withdrawal of USD 9,999.99 (score 0) with the rules evaluated', async () => {
    const d = suite.current;
    const body = d.screenBody(d.newUser(), usd(9_999.99));
    const response = await d.screen(body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      decision: 'allow',
      user_id: body.user_id,
      withdrawal_id: body.withdrawal_id,
      rules_triggered: [],
      risk_score: 0,
      rules_evaluated: [...RULE_CODES],
    });
  });

  it('R-001: holds a withdrawal of USD 10,000 (score 70) and opens a real-time case', async () => {
    const d = suite.current;
    const body = d.screenBody(d.newUser(), usd(10_000));
    const response = await d.screen(body);
    expect(response.json()).toEqual({
      decision: 'hold',
      user_id: body.user_id,
      withdrawal_id: body.withdrawal_id,
      rules_triggered: ['R-001'],
      risk_score: 70,
      case_id: expect.stringMatching(/^case_/),
      user_message: 'Your withdrawal is under review.',
      estimated_review_time: '48 hours',
    });
    const staff = (await d.t.backoffice('GET', `/aml/cases/${response.json().case_id}`)).json();
    expect(staff).toMatchObject({
      status: 'under_review',
      source: 'realtime',
      withdrawal_id: body.withdrawal_id,
      risk_score: 70,
    });
    expect(staff.screen).toMatchObject({
      withdrawal_id: body.withdrawal_id,
      decision: 'hold',
      usd_cents: usd(10_000),
    });
    expect((await d.cases(body.user_id)).cases).toEqual([
      {
        case_id: staff.case_id,
        opened_at: staff.opened_at,
        status: 'under_review',
        rules_triggered: ['R-001'],
        risk_score: 70,
      },
    ]);
  });

  it('R-001 judges a withdrawal in another currency by its USD value at the rate in force', async () => {
    const d = suite.current;
    await d.t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 1.1 });
    // EUR 9,000.00 is USD 9,900.00: under the threshold. EUR 9,500.00 is USD 10,450.00: over it.
    const under = await d.screen(d.screenBody(d.newUser(), 9_000_00, { currency: 'EUR' }));
    expect(under.json()).toMatchObject({ decision: 'allow', rules_triggered: [] });
    const over = await d.screen(d.screenBody(d.newUser(), 9_500_00, { currency: 'EUR' }));
    expect(over.json()).toMatchObject({ decision: 'hold', rules_triggered: ['R-001'] });
    const staff = (await d.t.backoffice('GET', `/aml/cases/${over.json().case_id}`)).json();
    expect(staff.screen).toMatchObject({ amount_cents: 9_500_00, currency: 'EUR', usd_cents: 10_450_00 });

    // A new rate applies to the next screen.
    await d.t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 1.2 });
    const after = await d.screen(d.screenBody(d.newUser(), 9_000_00, { currency: 'EUR' }));
    expect(after.json()).toMatchObject({ decision: 'hold', rules_triggered: ['R-001'] });
  });

  it('boundary 0 / 50: a history with R-007 alone (score 50) holds a small withdrawal', async () => {
    const d = suite.current;
    const user = d.newUser();
    await geographicAnomaly(user);
    const response = await d.screen(d.screenBody(user, usd(100)));
    expect(response.json()).toMatchObject({ decision: 'hold', rules_triggered: ['R-007'], risk_score: 50 });
  });

  it('boundary 70 / 80: R-005 alone (score 80) rejects; the reject shape has a case and a generic message', async () => {
    const d = suite.current;
    const user = d.newUser();
    const deposit = await d.event(user, 'deposit', usd(1_000), { at: -HOUR });
    const body = d.screenBody(user, usd(1_040));
    const response = await d.screen(body);
    expect(response.json()).toEqual({
      decision: 'reject',
      user_id: user,
      withdrawal_id: body.withdrawal_id,
      rules_triggered: ['R-005'],
      risk_score: 80,
      case_id: expect.stringMatching(/^case_/),
      user_message: 'Your withdrawal could not be processed. Please contact support.',
    });
    const staff = (await d.t.backoffice('GET', `/aml/cases/${response.json().case_id}`)).json();
    expect(staff.transaction_ids).toEqual([deposit, body.withdrawal_id]);
  });

  it('scores every rule the history trips now: R-001 + R-002 + R-004 caps at 100', async () => {
    const d = suite.current;
    const user = d.newUser();
    for (let i = 1; i <= 4; i++) await d.event(user, 'deposit', usd(40), { at: -i * 60 });
    await d.event(user, 'deposit', usd(6_000), { at: -30 });
    const response = await d.screen(d.screenBody(user, usd(12_000)));
    expect(response.json()).toMatchObject({
      decision: 'reject',
      rules_triggered: ['R-001', 'R-002', 'R-004'],
      risk_score: 100,
    });
  });

  it("R-006 at a screen: a fingerprint of the user's recorded history on 3 users; never the withdrawal's", async () => {
    const d = suite.current;
    const card = `iban-${d.newUser()}`;
    const [a, b, user] = [d.newUser(), d.newUser(), d.newUser()];
    await d.event(a, 'deposit', usd(20), { metadata: { payment_method_fingerprint: card } });
    await d.event(b, 'withdrawal', usd(20), { metadata: { payment_method_fingerprint: card } });
    // The withdrawal under screen uses the card two others used: it does not count for R-006.
    const untouched = await d.screen(d.screenBody(user, usd(100), { payment_method: card }));
    expect(untouched.json()).toMatchObject({ decision: 'allow', rules_triggered: [], risk_score: 0 });
    // Nor does an event the tenant sent under the withdrawal's id.
    const body = d.screenBody(user, usd(100), { payment_method: card });
    await d.event(user, 'withdrawal', usd(100), {
      metadata: { payment_method_fingerprint: card },
      transaction_id: body.withdrawal_id,
    });
    expect((await d.screen(body)).json()).toMatchObject({ decision: 'allow', risk_score: 0 });

    // Once the user's own recorded events carry the card, the history trips R-006 whatever the withdrawal uses.
    const deposit = await d.event(user, 'deposit', usd(20), {
      metadata: { payment_method_fingerprint: card },
    });
    const response = await d.screen(d.screenBody(user, usd(100), { payment_method: 'other' }));
    expect(response.json()).toMatchObject({ decision: 'reject', rules_triggered: ['R-006'], risk_score: 80 });
    const staff = (await d.t.backoffice('GET', `/aml/cases/${response.json().case_id}`)).json();
    expect(staff.transaction_ids).toHaveLength(1);
    expect([deposit, body.withdrawal_id]).toContain(staff.transaction_ids[0]);
  });

  it('R-006 at a screen stays quiet with two users of the fingerprint', async () => {
    const d = suite.current;
    const card = `iban-${d.newUser()}`;
    const user = d.newUser();
    await d.event(d.newUser(), 'deposit', usd(20), { metadata: { payment_method_fingerprint: card } });
    await d.event(user, 'deposit', usd(20), { metadata: { payment_method_fingerprint: card } });
    expect((await d.screen(d.screenBody(user, usd(100)))).json()).toMatchObject({ decision: 'allow' });
  });

  it('R-005 at a screen: a recorded pair of the last 24 hours trips; one 24 hours old has left', async () => {
    const d = suite.current;
    const user = d.newUser();
    const deposit = await d.event(user, 'deposit', usd(2_000), { at: -3 * HOUR });
    const withdrawal = await d.event(user, 'withdrawal', usd(1_950), { at: -2 * HOUR });
    const response = await d.screen(d.screenBody(user, usd(100)));
    expect(response.json()).toMatchObject({ decision: 'reject', rules_triggered: ['R-005'], risk_score: 80 });
    const staff = (await d.t.backoffice('GET', `/aml/cases/${response.json().case_id}`)).json();
    expect(staff.transaction_ids).toEqual([deposit, withdrawal]);

    const old = d.newUser();
    await d.event(old, 'deposit', usd(2_000), { at: -25 * HOUR });
    await d.event(old, 'withdrawal', usd(1_950), { at: -24 * HOUR });
    expect((await d.screen(d.screenBody(old, usd(100)))).json()).toMatchObject({ decision: 'allow' });
  });

  it('R-008 and R-009 at a screen come from the history, never from the withdrawal under screen', async () => {
    const d = suite.current;
    const user = d.newUser();
    await d.event(user, 'login', 0, { at: -100 * 86_400 });
    await d.event(user, 'wager', usd(5_000), { at: -HOUR });
    await d.event(user, 'wager', usd(5_000), { at: -HOUR + 1 });
    const response = await d.screen(d.screenBody(user, usd(500)));
    expect(response.json()).toMatchObject({ rules_triggered: ['R-008', 'R-009'], risk_score: 100 });

    // A USD 10,000 withdrawal also sent as an event (same id) counts once: R-001 only, not R-009 too.
    const lone = d.newUser();
    const body = d.screenBody(lone, usd(10_000));
    await d.event(lone, 'withdrawal', usd(10_000), { transaction_id: body.withdrawal_id });
    expect((await d.screen(body)).json()).toMatchObject({
      decision: 'hold',
      rules_triggered: ['R-001'],
      risk_score: 70,
    });
  });

  it('decides screens that arrive together each on its own user and amount', async () => {
    const d = suite.current;
    // Concurrent screens read their histories in one statement: no finding may cross from one user to another.
    const [anomalous, clean, large] = [d.newUser(), d.newUser(), d.newUser()];
    await geographicAnomaly(anomalous);
    await d.event(clean, 'deposit', usd(20), { at: -HOUR });
    const bodies = [
      d.screenBody(anomalous, usd(100)),
      d.screenBody(clean, usd(100)),
      d.screenBody(large, usd(10_000)),
      d.screenBody(clean, usd(200)),
    ];
    const responses = await Promise.all(bodies.map((body) => d.screen(body)));
    expect(responses.map((r) => r.json())).toEqual([
      expect.objectContaining({ user_id: anomalous, decision: 'hold', rules_triggered: ['R-007'] }),
      expect.objectContaining({ user_id: clean, decision: 'allow', rules_triggered: [] }),
      expect.objectContaining({ user_id: large, decision: 'hold', rules_triggered: ['R-001'] }),
      expect.objectContaining({ user_id: clean, decision: 'allow', withdrawal_id: bodies[3]!.withdrawal_id }),
    ]);
  });

  it('answers the same request again with the original 200, and a different one with 409', async () => {
    const d = suite.current;
    const body = d.screenBody(d.newUser(), usd(10_000));
    const first = await d.screen(body);
    await d.t.advance(60);
    const again = await d.screen(body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await d.cases(body.user_id)).cases).toHaveLength(1);

    const different = await d.screen({ ...body, amount_cents: usd(10_001) });
    expect(different.statusCode).toBe(409);
    expect(different.json().error).toBe('withdrawal_already_screened');
    expect((await d.cases(body.user_id)).cases).toHaveLength(1);
  });

  it.each([
    ['a missing withdrawal_id', { withdrawal_id: undefined }],
    ['a zero amount', { amount_cents: 0 }],
    ['a bad destination_country', { destination_country: 'Canada' }],
    ['a currency without a rate', { currency: 'XTS' }],
  ])('answers 400 invalid_event for %s', async (_case, change) => {
    const d = suite.current;
    const response = await d.screen({ ...d.screenBody(d.newUser(), usd(100)), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_event');
  });

  it('answers within a few milliseconds', async () => {
    const d = suite.current;
    const user = d.newUser();
    for (let i = 0; i < 20; i++) await d.event(user, i % 2 ? 'wager' : 'deposit', usd(10), { at: -i * 600 });
    const started = performance.now();
    for (let i = 0; i < 10; i++) await d.screen(d.screenBody(user, usd(50)));
    const perScreen = (performance.now() - started) / 10;
    expect(perScreen).toBeLessThan(200);
  });

  it("does not see another tenant's history or cases", async () => {
    const d = suite.current;
    const other = await d.otherTenant();
    try {
      const user = d.newUser();
      await geographicAnomaly(user);
      const mine = await d.screen(d.screenBody(user, usd(10_000)));
      expect(mine.json().risk_score).toBe(100);
      const theirs = await other.screen(other.screenBody(user, usd(100)));
      expect(theirs.json()).toMatchObject({ decision: 'allow', risk_score: 0 });
      expect(await other.cases(user)).toEqual({ user_id: user, open_cases: 0, cases: [] });
    } finally {
      await other.receiver.close();
    }
  });
});
