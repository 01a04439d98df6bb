import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { staffOf } from '../../../test/helpers/staff-driver.js';
import { SanctionsDriver } from './sanctions.test-support.js';

describe('sanctions review by the staff', () => {
  const suite = useSuite(() => SanctionsDriver.start());

  const hit = async (change: Record<string, string> = { first_name: 'SanctionedSam' }) => {
    const d = suite.current;
    const body = d.person(change);
    const response = await d.screen(body);
    return { body, userId: body.user_id!, first: response.json(), caseId: response.json().case_id as string };
  };

  it('hit_review_pending → cleared: holds lifted, sanctions.cleared with exactly the spec data', async () => {
    const d = suite.current;
    const { body, userId, first, caseId } = await hit();
    const decision = await d.decide(caseId, 'cleared');
    expect(decision.statusCode).toBe(200);
    const reviewer = (await staffOf(d.t, 'reviewer')).member;
    expect(decision.json()).toMatchObject({
      case_id: caseId,
      status: 'cleared',
      reviewer: reviewer.staffId,
      decided_at: d.t.platform.clock.now().toISOString(),
    });
    expect((await d.status(userId)).json()).toEqual({
      screen_id: first.screen_id,
      user_id: userId,
      status: 'cleared',
      checked_at: first.checked_at,
      transactions_held: false,
      case_id: caseId,
    });
    const [cleared, ...more] = await d.webhooks('sanctions.cleared', userId);
    expect(more).toEqual([]);
    // The tenant learns an opaque reference of the reviewer, never who they are.
    expect(cleared!.data).toEqual({
      case_id: caseId,
      user_id: userId,
      reviewer: reviewer.reviewerRef,
      transactions_held: false,
    });
    expect(reviewer.reviewerRef).toMatch(/^rvw_[0-9a-f]{20}$/);

    // The signup request repeated still gets its original answer; the status endpoint has the current one.
    const again = await d.screen(body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first);
  });

  it('hit_review_pending → confirmed (approved): sanctions.confirmed and sanctions.account_frozen; holds stay', async () => {
    const d = suite.current;
    const { userId, caseId } = await hit({ last_name: 'TestHit' });
    expect((await d.decideAndApprove(caseId, 'confirmed')).json().status).toBe('confirmed');
    expect((await d.status(userId)).json()).toMatchObject({
      status: 'confirmed',
      transactions_held: true,
      case_id: caseId,
    });
    // The decision is its proposer's: the reviewer's reference, not the approving supervisor's.
    const reviewer = (await staffOf(d.t, 'reviewer')).member.reviewerRef;
    const data = { case_id: caseId, user_id: userId, reviewer, transactions_held: true };
    const confirmed = await d.webhooks('sanctions.confirmed', userId);
    expect(confirmed.map((e) => e.data)).toEqual([data]);
    const frozen = await d.webhooks('sanctions.account_frozen', userId);
    expect(frozen.map((e) => e.data)).toEqual([{ ...data, funds_frozen: true }]);
    expect(await d.webhooks('sanctions.cleared', userId)).toEqual([]);
  });

  it.each([
    ['cleared', 'confirmed'],
    ['confirmed', 'cleared'],
    ['cleared', 'cleared'],
  ])(
    'decides only from hit_review_pending: %s then %s is 409 case_already_decided',
    async (first, second) => {
      const d = suite.current;
      const { userId, caseId } = await hit();
      await d.decideAndApprove(caseId, first);
      const response = await d.decide(caseId, second);
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe('case_already_decided');
      expect((await d.status(userId)).json().status).toBe(first);
      expect(await d.webhooks(`sanctions.${second}`, userId)).toHaveLength(first === second ? 1 : 0);
    },
  );

  it('answers 404 for an unknown case and 400 for an unknown decision or a body naming a reviewer; the token decides nothing', async () => {
    const d = suite.current;
    expect((await d.decide('case_missing', 'cleared')).statusCode).toBe(404);
    const { caseId } = await hit();
    expect((await d.decide(caseId, 'dismissed')).statusCode).toBe(400);
    expect((await d.t.backoffice('GET', `/sanctions/cases/${caseId}`)).json().status).toBe(
      'hit_review_pending',
    );
    // A name in the body is never an identity: the field is refused.
    const named = await d.t.asStaff('reviewer', 'POST', `/sanctions/cases/${caseId}/decision`, {
      decision: 'cleared',
      reason: 'automation',
      reviewer: 'r.jones',
    });
    expect(named.statusCode).toBe(400);
    const token = await d.t.backoffice('POST', `/sanctions/cases/${caseId}/decision`, {
      decision: 'cleared',
      reason: 'automation',
    });
    expect([token.statusCode, token.json().error]).toEqual([403, 'staff_session_required']);
    expect((await d.t.backoffice('GET', `/sanctions/cases/${caseId}`)).json().status).toBe(
      'hit_review_pending',
    );
  });

  it('shows reviewers the matched list entries and scores, by status and tenant, and one case', async () => {
    const d = suite.current;
    const { userId, caseId } = await hit({ last_name: 'TestHit' });
    const detail = await d.t.backoffice('GET', `/sanctions/cases/${caseId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      case_id: caseId,
      tenant_id: d.tenant.tenantId,
      user_id: userId,
      status: 'hit_review_pending',
      trigger: 'signup',
      decided_at: null,
      reviewer: null,
    });
    const matches = detail.json().matches as {
      list: string;
      entity_id: string;
      name: string;
      score: number;
    }[];
    expect(matches).toHaveLength(2);
    for (const match of matches) {
      expect(match).toEqual({
        list: expect.any(String),
        entity_id: expect.any(String),
        name: expect.any(String),
        score: expect.any(Number),
      });
    }
    expect(detail.json().highest_match_score).toBe(Math.max(...matches.map((m) => m.score)));

    const list = async (query: string) =>
      (await d.t.backoffice('GET', `/sanctions/cases?${query}`)).json().cases as { case_id: string }[];
    const pending = await list(`status=hit_review_pending&tenant_id=${d.tenant.tenantId}`);
    expect(pending.find((c) => c.case_id === caseId)).toMatchObject({ matches });
    await d.decide(caseId, 'cleared');
    expect((await list('status=hit_review_pending')).map((c) => c.case_id)).not.toContain(caseId);
    expect((await list('status=cleared')).map((c) => c.case_id)).toContain(caseId);
    expect(await list('tenant_id=ten_none')).toEqual([]);
    expect((await d.t.backoffice('GET', '/sanctions/cases/case_missing')).statusCode).toBe(404);
  });
});
