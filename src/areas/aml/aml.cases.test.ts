import { describe, expect, it } from 'vitest';
import { staffOf } from '../../../test/helpers/staff-driver.js';
import { useSuite } from '../../../test/helpers/suite.js';
import { AML_RULES } from './aml.rules.js';
import { AmlDriver } from './aml.test-support.js';
import { HOUR, usd } from '../../../test/helpers/units.js';

describe('AML cases and compliance decisions', () => {
  const suite = useSuite(() => AmlDriver.start());

  const heldCase = async (user = suite.current.newUser()) => {
    const d = suite.current;
    const body = d.screenBody(user, usd(10_000));
    const { case_id } = (await d.screen(body)).json();
    return { user, case_id: case_id as string, withdrawal_id: body.withdrawal_id };
  };
  // Every decision here takes effect: a freeze or an escalation is proposed, then approved (four eyes).
  const decide = (caseId: string, action: string) =>
    suite.current.decideAndApprove(caseId, { action, reason: `${action} after review` });
  /** The reviewer who proposes every decision here: staff see their id, tenants an opaque reference. */
  const reviewer = async () => (await staffOf(suite.current.t, 'reviewer')).member;
  /** The one webhook of this event for the user, verified with standardwebhooks. */
  const webhook = async (event: string, user: string) => {
    const d = suite.current;
    await d.pass();
    const found = d.received(event, user);
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('confirm_hold → held (aml.held), escalate → escalated (aml.escalated), clear → cleared (aml.cleared)', async () => {
    const d = suite.current;
    const { user, case_id, withdrawal_id } = await heldCase();
    const { staffId, reviewerRef } = await reviewer();
    const data = { case_id, user_id: user, withdrawal_id, rules_triggered: ['R-001'], reviewer: reviewerRef };

    const held = await decide(case_id, 'confirm_hold');
    expect(held.statusCode).toBe(200);
    expect(held.json()).toMatchObject({
      status: 'held',
      reviewer: staffId,
      decided_at: expect.any(String),
    });
    expect((await webhook('aml.held', user)).data).toEqual({ ...data, status: 'held' });

    expect((await decide(case_id, 'escalate')).json().status).toBe('escalated');
    expect((await webhook('aml.escalated', user)).data).toEqual({ ...data, status: 'escalated' });

    expect((await decide(case_id, 'clear')).json().status).toBe('cleared');
    expect((await webhook('aml.cleared', user)).data).toEqual({ ...data, status: 'cleared' });
    expect(await d.cases(user)).toMatchObject({ open_cases: 0, cases: [{ case_id, status: 'cleared' }] });

    const closed = await decide(case_id, 'freeze');
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error).toBe('case_already_closed');
  });

  it('freeze from under_review → frozen (aml.account_frozen); a frozen case takes no further decision', async () => {
    const { user, case_id, withdrawal_id } = await heldCase();
    expect((await decide(case_id, 'freeze')).json().status).toBe('frozen');
    expect((await webhook('aml.account_frozen', user)).data).toEqual({
      case_id,
      user_id: user,
      status: 'frozen',
      withdrawal_id,
      rules_triggered: ['R-001'],
      reviewer: (await reviewer()).reviewerRef,
    });
    expect((await decide(case_id, 'clear')).json().error).toBe('case_already_closed');
  });

  it('clear from under_review, freeze from held and from escalated', async () => {
    const a = await heldCase();
    expect((await decide(a.case_id, 'clear')).json().status).toBe('cleared');
    const b = await heldCase();
    await decide(b.case_id, 'confirm_hold');
    expect((await decide(b.case_id, 'freeze')).json().status).toBe('frozen');
    const c = await heldCase();
    await decide(c.case_id, 'escalate');
    expect((await decide(c.case_id, 'freeze')).json().status).toBe('frozen');
  });

  it.each([
    ['confirm_hold', 'held'],
    ['confirm_hold', 'escalated'],
    ['escalate', 'escalated'],
  ])('refuses %s on a %s case with 409 case_transition_not_allowed', async (action, status) => {
    const { case_id } = await heldCase();
    await decide(case_id, status === 'held' ? 'confirm_hold' : 'escalate');
    const response = await decide(case_id, action);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('case_transition_not_allowed');
  });

  it('answers 404 for an unknown case and 400 for an unknown action', async () => {
    expect((await decide('case_missing', 'clear')).statusCode).toBe(404);
    const { case_id } = await heldCase();
    expect((await decide(case_id, 'approve')).statusCode).toBe(400);
  });

  it('decides async cases too, and a trip after a closed case opens a new one', async () => {
    const d = suite.current;
    const user = d.newUser();
    for (const at of [-240, -180, -120, -60, 0]) await d.event(user, 'deposit', usd(50), { at });
    await d.pass();
    const [first] = (await d.cases(user)).cases;
    expect((await decide(first!.case_id, 'clear')).json().status).toBe('cleared');
    expect((await webhook('aml.cleared', user)).data).toMatchObject({
      case_id: first!.case_id,
      withdrawal_id: null,
    });

    // A new pattern after the case was closed opens a second case.
    await d.t.advance(HOUR);
    await d.event(user, 'login', 0, { metadata: { session_id: 'x', ip_country: 'GB' } });
    await d.event(user, 'deposit', usd(50), {
      at: 60,
      metadata: { session_id: 'x', card_country: 'BR' },
    });
    await d.pass();
    const { cases, open_cases } = await d.cases(user);
    expect(open_cases).toBe(1);
    expect(cases.map((c) => [c.status, c.rules_triggered])).toEqual([
      ['under_review', ['R-007']],
      ['cleared', ['R-002']],
    ]);
    expect(d.flagged(user)).toHaveLength(2);
  });

  it('a new rule on an open case adds to it and flags again with the combined score', async () => {
    const d = suite.current;
    const user = d.newUser();
    await d.event(user, 'login', 0, { at: -600, metadata: { session_id: 'y', ip_country: 'GB' } });
    await d.event(user, 'deposit', usd(50), { at: -540, metadata: { session_id: 'y', card_country: 'BR' } });
    await d.pass();
    for (const at of [-240, -180, -120, -60, 0]) await d.event(user, 'deposit', usd(50), { at });
    await d.pass();
    const flags = d.flagged(user).map((e) => e.data);
    expect(flags.map((f) => [f.rules_triggered, f.risk_score, f.recommended_action])).toEqual([
      [['R-007'], 50, 'hold_and_review'],
      [['R-002', 'R-007'], 100, 'escalate'],
    ]);
    expect(new Set(flags.map((f) => f.case_id)).size).toBe(1);
  });

  it('shows staff the rule descriptions, transactions and context; lists by status and tenant', async () => {
    const d = suite.current;
    const user = d.newUser();
    await d.event(user, 'deposit', usd(1_000), { at: -HOUR });
    await d.event(user, 'withdrawal', usd(990));
    await d.pass();
    const [entry] = (await d.cases(user)).cases;
    const detail = (await d.t.backoffice('GET', `/aml/cases/${entry!.case_id}`)).json();
    expect(detail.rules).toEqual([{ code: 'R-005', ...pick(AML_RULES['R-005']) }]);
    expect(detail.transactions.map((t: { event_type: string }) => t.event_type)).toEqual([
      'deposit',
      'withdrawal',
    ]);
    expect(detail.context[0]).toMatchObject({ rule_code: 'R-005', details: { tolerance_percent: 5 } });

    const listed = await d.t.backoffice(
      'GET',
      `/aml/cases?status=under_review&tenant_id=${d.tenant.tenantId}`,
    );
    const found = listed.json().cases.find((c: { case_id: string }) => c.case_id === entry!.case_id);
    expect(found.rules[0].description).toBe(AML_RULES['R-005'].description);
    expect((await d.t.backoffice('GET', '/aml/cases?status=frozen&tenant_id=ten_none')).json().cases).toEqual(
      [],
    );
    expect((await d.t.backoffice('GET', '/aml/cases/case_missing')).statusCode).toBe(404);
  });

  it("hides a tenant's cases from another tenant", async () => {
    const d = suite.current;
    const { user, case_id } = await heldCase();
    const other = await d.otherTenant();
    try {
      expect(await other.cases(user)).toEqual({ user_id: user, open_cases: 0, cases: [] });
      expect((await d.cases(user)).cases.map((c) => c.case_id)).toEqual([case_id]);
    } finally {
      await other.receiver.close();
    }
  });

  it('answers 400 invalid_event without a user_id', async () => {
    const d = suite.current;
    const response = await d.t.api(d.tenant.apiKey, 'GET', '/v1/aml/cases');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_event');
  });
});

const pick = (rule: {
  pattern: string;
  description: string;
  severity: number;
  mode: string;
  counts: string;
}) => ({
  pattern: rule.pattern,
  description: rule.description,
  severity: rule.severity,
  mode: rule.mode,
  counts: rule.counts,
});
