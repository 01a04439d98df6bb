import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { staffOf } from '../../../test/helpers/staff-driver.js';
import { SanctionsDriver } from './sanctions.test-support.js';
import { HOUR } from '../../../test/helpers/units.js';

describe('sanctions review queue: due times, alerts and the audit of decisions', () => {
  const suite = useSuite(() => SanctionsDriver.start());

  const hit = async (apiKey = suite.current.tenant.apiKey) => {
    const d = suite.current;
    const response = await d.screen(d.person({ first_name: 'SanctionedSam' }), apiKey);
    expect(response.statusCode).toBe(201);
    return response.json().case_id as string;
  };
  const alertsOf = async (kind: string, subject: string) => {
    const d = suite.current;
    const body = (await d.t.backoffice('GET', `/alerts?kind=${kind}&limit=1000`)).json();
    return (body.alerts as { subject: string; kind: string; raised_at: string }[]).filter(
      (a) => a.subject === subject,
    );
  };

  it('a 250-case backlog is walked to its end oldest-due first, page by page', async () => {
    const d = suite.current;
    const tenant = await d.t.createTenant();
    // 250 signups in a minute: above the sandbox default of 100 requests a minute.
    await d.t.backoffice('PUT', `/tenants/${tenant.tenantId}/rate-limits`, { default_per_minute: 1000 });
    const opened: string[] = [];
    for (let group = 0; group < 5; group++) {
      for (let i = 0; i < 50; i++) opened.push(await hit(tenant.apiKey));
      await d.t.advance(60);
    }
    const seen: { case_id: string; due_at: string; sla_breached: boolean }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query = `tenant_id=${tenant.tenantId}&status=hit_review_pending&limit=40${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await d.t.backoffice('GET', `/sanctions/cases?${query}`);
      expect(response.statusCode).toBe(200);
      seen.push(...response.json().cases);
      cursor = response.json().next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(7);
    expect(seen).toHaveLength(250);
    expect(new Set(seen.map((c) => c.case_id))).toEqual(new Set(opened));
    const order = seen.map((c) => `${c.due_at}/${c.case_id}`);
    expect(order).toEqual([...order].sort());
    // The first group opened first: its cases lead the queue.
    expect(new Set(seen.slice(0, 50).map((c) => c.case_id))).toEqual(new Set(opened.slice(0, 50)));
    expect(seen.every((c) => c.sla_breached === false)).toBe(true);

    expect((await d.t.backoffice('GET', '/sanctions/cases?cursor=not-a-cursor')).statusCode).toBe(400);
  });

  it('a hit is due 48 hours after opening: due soon 4 hours before, overdue at the due time, in the queue', async () => {
    const d = suite.current;
    const opened = d.t.platform.clock.now();
    const caseId = await hit();
    const detail = (await d.t.backoffice('GET', `/sanctions/cases/${caseId}`)).json();
    expect(detail.due_at).toBe(new Date(opened.getTime() + 48 * HOUR * 1000).toISOString());
    expect(detail.sla_breached).toBe(false);

    await d.t.advance(44 * HOUR - 1);
    expect(await alertsOf('review_due_soon', caseId)).toEqual([]);
    await d.t.advance(1);
    const [dueSoon, ...moreDueSoon] = await alertsOf('review_due_soon', caseId);
    expect(moreDueSoon).toEqual([]);
    expect(dueSoon).toMatchObject({ kind: 'review_due_soon', subject: caseId });

    await d.t.advance(4 * HOUR - 1);
    expect(await alertsOf('review_overdue', caseId)).toEqual([]);
    const notYet = (
      await d.t.backoffice('GET', `/sanctions/cases?tenant_id=${d.tenant.tenantId}&overdue=true&limit=1000`)
    ).json();
    expect(notYet.cases.map((c: { case_id: string }) => c.case_id)).not.toContain(caseId);

    await d.t.advance(1);
    const [overdue] = await alertsOf('review_overdue', caseId);
    expect(overdue).toMatchObject({
      kind: 'review_overdue',
      subject: caseId,
      raised_at: d.t.platform.clock.now().toISOString(),
    });
    const listed = (
      await d.t.backoffice('GET', `/sanctions/cases?tenant_id=${d.tenant.tenantId}&overdue=true&limit=1000`)
    ).json();
    expect(listed.cases.find((c: { case_id: string }) => c.case_id === caseId)).toMatchObject({
      status: 'hit_review_pending',
      sla_breached: true,
    });

    // Decided late: the breach stays on the record, and the case leaves the overdue queue.
    await d.decide(caseId, 'cleared');
    const decided = (await d.t.backoffice('GET', `/sanctions/cases/${caseId}`)).json();
    expect(decided).toMatchObject({ status: 'cleared', sla_breached: true });
    const after = (
      await d.t.backoffice('GET', `/sanctions/cases?tenant_id=${d.tenant.tenantId}&overdue=true&limit=1000`)
    ).json();
    expect(after.cases.map((c: { case_id: string }) => c.case_id)).not.toContain(caseId);
  });

  it('a case decided in time raises no alert', async () => {
    const d = suite.current;
    const caseId = await hit();
    await d.t.advance(HOUR);
    expect((await d.decideAndApprove(caseId, 'confirmed')).statusCode).toBe(200);
    await d.t.advance(48 * HOUR);
    expect(await alertsOf('review_due_soon', caseId)).toEqual([]);
    expect(await alertsOf('review_overdue', caseId)).toEqual([]);
    expect((await d.t.backoffice('GET', `/sanctions/cases/${caseId}`)).json().sla_breached).toBe(false);
  });

  it('a decision is audited with the reviewer, the reason and the request id; without a reason it is 400', async () => {
    const d = suite.current;
    const caseId = await hit();
    const noReason = await d.t.asStaff('reviewer', 'POST', `/sanctions/cases/${caseId}/decision`, {
      decision: 'cleared',
    });
    expect(noReason.statusCode).toBe(400);
    const blank = await d.decide(caseId, 'cleared', '   ');
    expect(blank.statusCode).toBe(400);
    expect((await d.t.backoffice('GET', `/sanctions/cases/${caseId}`)).json().status).toBe(
      'hit_review_pending',
    );

    const decision = await d.decide(caseId, 'cleared', 'different date of birth');
    expect(decision.statusCode).toBe(200);
    const reviewer = (await staffOf(d.t, 'reviewer')).member.staffId;
    expect(decision.json()).toMatchObject({ reviewer, decision_reason: 'different date of birth' });
    const log = await d.t.backoffice('GET', `/tenants/${d.tenant.tenantId}/audit-log?limit=1000`);
    const entries = (log.json().entries as { action: string; details: { case_id?: string } }[]).filter(
      (e) => e.details.case_id === caseId,
    );
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'sanctions.case_cleared',
        actor: reviewer,
        request_id: decision.headers['x-request-id'],
        details: expect.objectContaining({ decision: 'cleared', reason: 'different date of birth' }),
      }),
    ]);
  });
});
