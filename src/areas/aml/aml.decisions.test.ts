import { describe, expect, it } from 'vitest';
import { staffOf } from '../../../test/helpers/staff-driver.js';
import { useSuite } from '../../../test/helpers/suite.js';
import { ALLOWED_DECISIONS, DECISION_ACTIONS, DECISIONS } from './aml.case-rules.js';
import { CASE_ORIGINS, type AmlCaseOrigin, type AmlCaseStatus } from './aml.tables.js';
import { AmlDriver } from './aml.test-support.js';
import { HOUR, usd } from '../../../test/helpers/units.js';

describe('AML decisions by case origin (ALLOWED_DECISIONS), each through the back office', () => {
  const suite = useSuite(() => AmlDriver.start());

  // Every decision here takes effect: a freeze or an escalation is proposed, then approved (four eyes).
  const decide = (caseId: string, body: Record<string, unknown>) =>
    suite.current.decideAndApprove(caseId, body);

  /** A fresh case of this origin, opened through the tenant API. */
  async function openCase(origin: AmlCaseOrigin): Promise<{ user: string; caseId: string }> {
    const d = suite.current;
    const user = d.newUser();
    if (origin === 'async') {
      // R-002 (score 60): five deposits within the hour.
      for (const at of [-240, -180, -120, -60, 0]) await d.event(user, 'deposit', usd(50), { at });
      await d.pass();
      return { user, caseId: (await d.cases(user)).cases[0]!.case_id };
    }
    if (origin === 'screen_reject') {
      // R-005 at the screen (score 80): the withdrawal round-trips a deposit of three hours ago.
      await d.event(user, 'deposit', usd(2_000), { at: -3 * HOUR });
      const screen = (await d.screen(d.screenBody(user, usd(2_000)))).json();
      expect(screen.decision).toBe('reject');
      return { user, caseId: screen.case_id };
    }
    const screen = (await d.screen(d.screenBody(user, usd(10_000)))).json();
    expect(screen.decision).toBe('hold');
    return { user, caseId: screen.case_id };
  }

  /** The open statuses a case of this origin can reach, each with the decision that leads there. */
  const reachable = (origin: AmlCaseOrigin): [AmlCaseStatus, string | undefined][] =>
    [
      ['under_review', undefined] as [AmlCaseStatus, string | undefined],
      ['held', 'confirm_hold'] as [AmlCaseStatus, string | undefined],
      ['escalated', 'escalate'] as [AmlCaseStatus, string | undefined],
    ].filter(([, via]) => !via || ALLOWED_DECISIONS[origin][via as 'escalate'].includes('under_review'));

  const cells = CASE_ORIGINS.flatMap((origin) =>
    reachable(origin).flatMap(([status, via]) =>
      DECISION_ACTIONS.map((action) => ({ origin, status, via, action })),
    ),
  );

  it('covers every origin and action', () => {
    expect(new Set(cells.map((c) => `${c.origin}/${c.action}`)).size).toBe(CASE_ORIGINS.length * 4);
    // A rejected withdrawal is never released: no clear, no hold, from any status.
    expect(ALLOWED_DECISIONS.screen_reject.clear).toEqual([]);
    expect(ALLOWED_DECISIONS.screen_reject.confirm_hold).toEqual([]);
  });

  it.each(cells)('$origin case in $status: $action', async ({ origin, status, via, action }) => {
    const d = suite.current;
    const { caseId } = await openCase(origin);
    if (via) expect((await decide(caseId, { action: via, reason: 'setup' })).statusCode).toBe(200);
    const response = await decide(caseId, { action, reason: `${action} on review` });
    const allowed = ALLOWED_DECISIONS[origin][action].includes(status);
    if (allowed) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ case_id: caseId, status: DECISIONS[action].to, origin });
      return;
    }
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error:
        ALLOWED_DECISIONS[origin][action].length === 0
          ? 'decision_not_allowed_for_origin'
          : 'case_transition_not_allowed',
      message: expect.any(String),
      request_id: expect.any(String),
    });
    const staff = (await d.t.backoffice('GET', `/aml/cases/${caseId}`)).json();
    expect(staff.status).toBe(status);
  });

  it('no event or response tells the tenant to pay out a rejected withdrawal', async () => {
    const d = suite.current;
    const { user, caseId } = await openCase('screen_reject');
    for (const action of ['clear', 'confirm_hold']) {
      expect((await decide(caseId, { action, reason: 'try' })).statusCode).toBe(409);
    }
    expect((await decide(caseId, { action: 'escalate', reason: 'SAR' })).statusCode).toBe(200);
    expect((await decide(caseId, { action: 'clear', reason: 'try' })).statusCode).toBe(409);
    await d.pass();
    expect(d.received(undefined, user).map((w) => w.event)).toEqual(['aml.escalated']);
    expect((await d.cases(user)).cases).toMatchObject([{ case_id: caseId, status: 'escalated' }]);
  });

  describe('every decision is audited with actor, reason and request id; a reason is mandatory', () => {
    it('refuses a decision without a reason (400) and changes nothing', async () => {
      const d = suite.current;
      const { caseId } = await openCase('screen_hold');
      for (const body of [
        { action: 'clear' },
        { action: 'clear', reason: '' },
        { action: 'clear', reason: '   ' },
      ]) {
        const response = await decide(caseId, body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: 'invalid_request', request_id: expect.any(String) });
      }
      expect((await d.t.backoffice('GET', `/aml/cases/${caseId}`)).json().status).toBe('under_review');
    });

    it('writes the audit row with the decision, in the same transaction', async () => {
      const d = suite.current;
      const { caseId } = await openCase('screen_hold');
      const proposed = await d.decide(caseId, { action: 'escalate', reason: 'SAR filed: ref 42' });
      const reviewer = (await staffOf(d.t, 'reviewer')).member.staffId;
      const supervisor = (await staffOf(d.t, 'supervisor')).member.staffId;
      expect(proposed.statusCode).toBe(200);
      const response = await d.approve(caseId);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ decision_reason: 'SAR filed: ref 42', reviewer });
      const log = await d.t.backoffice('GET', `/tenants/${d.tenant.tenantId}/audit-log?limit=1000`);
      const entries = log
        .json()
        .entries.filter((e: { details: { case_id?: string } }) => e.details.case_id === caseId);
      const row = (actor: string, action: string, request: typeof response, details: object) => ({
        audit_id: expect.any(Number),
        occurred_at: expect.any(String),
        actor,
        action,
        request_id: request.headers['x-request-id'],
        details,
      });
      const proposal_id = proposed.json().pending_proposal.proposal_id;
      // Newest first: the decision (the proposer's, naming its approver), its approval, then the proposal.
      expect(entries).toEqual([
        row(reviewer, 'aml.case_escalate', response, {
          case_id: caseId,
          origin: 'screen_hold',
          from: 'under_review',
          to: 'escalated',
          reason: 'SAR filed: ref 42',
          approved_by: supervisor,
        }),
        row(supervisor, 'aml.decision_approved', response, {
          proposal_id,
          case_id: caseId,
          action: 'escalate',
          proposed_by: reviewer,
        }),
        row(reviewer, 'aml.decision_proposed', proposed, {
          proposal_id,
          case_id: caseId,
          action: 'escalate',
          reason: 'SAR filed: ref 42',
        }),
      ]);
      // A refused decision writes nothing.
      await decide(caseId, { action: 'confirm_hold', reason: 'late' });
      const after = await d.t.backoffice('GET', `/tenants/${d.tenant.tenantId}/audit-log?limit=1000`);
      expect(
        after.json().entries.filter((e: { details: { case_id?: string } }) => e.details.case_id === caseId),
      ).toHaveLength(3);
    });
  });
});
