import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { REVIEW_SLA_SECONDS } from './aml.case-rules.js';
import { AmlDriver } from './aml.test-support.js';
import { HOUR, usd } from '../../../test/helpers/units.js';

interface StaffCase {
  case_id: string;
  tenant_id: string;
  status: string;
  due_at: string;
  opened_at: string;
  sla_breached: boolean;
}

describe('the AML review queue: due times, oldest-due listing, alerts', () => {
  const suite = useSuite(() => AmlDriver.start());

  const holdCase = async (driver = suite.current) => {
    const screen = (await driver.screen(driver.screenBody(driver.newUser(), usd(10_000)))).json();
    expect(screen.decision).toBe('hold');
    return screen.case_id as string;
  };
  const page = async (query: string) => {
    const d = suite.current;
    const response = await d.t.backoffice('GET', `/aml/cases?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ cases: StaffCase[]; next_cursor: string | null }>();
  };
  const alertsFor = async (caseId: string) => {
    const d = suite.current;
    const { alerts } = (await d.t.backoffice('GET', '/alerts?limit=1000')).json<{
      alerts: { kind: string; subject: string; details: Record<string, unknown> }[];
    }>();
    return alerts.filter((a) => a.subject === caseId).map((a) => a.kind);
  };

  it('walks a 250-case backlog to its end, oldest-due first, with no duplicates or gaps', async () => {
    const d = suite.current;
    const tenant = await d.otherTenant();
    const limits = await d.t.backoffice('PUT', `/tenants/${tenant.tenant.tenantId}/rate-limits`, {
      default_per_minute: 100_000,
    });
    expect(limits.statusCode).toBe(200);
    try {
      const opened: string[] = [];
      // Five waves of 50: cases of one wave share their due time, so the case id breaks the tie.
      for (let wave = 0; wave < 5; wave++) {
        opened.push(...(await Promise.all(Array.from({ length: 50 }, () => holdCase(tenant)))));
        await d.t.advance(60);
      }
      const walked: StaffCase[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `tenant_id=${tenant.tenant.tenantId}&limit=37${cursor ? `&cursor=${cursor}` : ''}`;
        const result = await page(query);
        walked.push(...result.cases);
        cursor = result.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(7);
      expect(walked).toHaveLength(250);
      expect(new Set(walked.map((c) => c.case_id))).toEqual(new Set(opened));
      const key = (c: StaffCase) => `${new Date(c.due_at).toISOString()}|${c.case_id}`;
      expect(walked.map(key)).toEqual(walked.map(key).sort());
      for (const c of walked) {
        expect(c.tenant_id).toBe(tenant.tenant.tenantId);
        expect(new Date(c.due_at).getTime() - new Date(c.opened_at).getTime()).toBe(
          REVIEW_SLA_SECONDS * 1000,
        );
      }
      // The status filter keeps the order and the cursor.
      const firstTwo = await page(`tenant_id=${tenant.tenant.tenantId}&status=under_review&limit=2`);
      expect(firstTwo.cases.map((c) => c.case_id)).toEqual(walked.slice(0, 2).map((c) => c.case_id));
      const next = await page(
        `tenant_id=${tenant.tenant.tenantId}&status=under_review&limit=2&cursor=${firstTwo.next_cursor}`,
      );
      expect(next.cases.map((c) => c.case_id)).toEqual(walked.slice(2, 4).map((c) => c.case_id));
    } finally {
      await tenant.receiver.close();
    }
  });

  it('answers 400 for a cursor that names no case', async () => {
    const d = suite.current;
    const response = await d.t.backoffice('GET', '/aml/cases?cursor=case_nothing');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request', request_id: expect.any(String) });
  });

  it('raises "due soon" at due − 4 h and "overdue" at the due time; lists it as overdue, SLA breached', async () => {
    const d = suite.current;
    const caseId = await holdCase();
    const decided = await holdCase();
    const response = await d.t.asStaff('reviewer', 'POST', `/aml/cases/${decided}/decision`, {
      action: 'clear',
      reason: 'dismissed',
    });
    expect(response.statusCode).toBe(200);

    await d.t.advance(REVIEW_SLA_SECONDS - 4 * HOUR - 1);
    expect(await alertsFor(caseId)).toEqual([]);
    await d.t.advance(1);
    expect(await alertsFor(caseId)).toEqual(['review_due_soon']);

    const overdueBefore = await page(`tenant_id=${d.tenant.tenantId}&overdue=true`);
    expect(overdueBefore.cases.map((c) => c.case_id)).not.toContain(caseId);

    await d.t.advance(4 * HOUR);
    expect(await alertsFor(caseId)).toEqual(['review_overdue', 'review_due_soon']);
    const { alerts } = (await d.t.backoffice('GET', '/alerts?kind=review_overdue')).json();
    expect(alerts.find((a: { subject: string }) => a.subject === caseId)).toMatchObject({
      kind: 'review_overdue',
      subject: caseId,
      details: { queue: 'aml', tenant_id: d.tenant.tenantId },
    });

    const overdue = await page(`tenant_id=${d.tenant.tenantId}&overdue=true`);
    expect(overdue.cases.find((c) => c.case_id === caseId)).toMatchObject({ sla_breached: true });
    expect(overdue.cases.map((c) => c.case_id)).not.toContain(decided);
    // A decided case raises nothing, and was decided within its SLA.
    expect(await alertsFor(decided)).toEqual([]);
    const staff = (await d.t.backoffice('GET', `/aml/cases/${decided}`)).json();
    expect(staff).toMatchObject({ status: 'cleared', sla_breached: false, reviewed_at: expect.any(String) });

    // Deciding an overdue case ends its alerts' schedule and leaves the queue; the breach stays on record.
    const escalated = await d.decideAndApprove(caseId, { action: 'escalate', reason: 'SAR' });
    expect(escalated.statusCode).toBe(200);
    const after = await page(`tenant_id=${d.tenant.tenantId}&overdue=true`);
    expect(after.cases.map((c) => c.case_id)).not.toContain(caseId);
    expect((await d.t.backoffice('GET', `/aml/cases/${caseId}`)).json().sla_breached).toBe(true);
  });

  it('an async case gets its due time and alerts too; a decided one raises nothing', async () => {
    const d = suite.current;
    const user = d.newUser();
    const other = d.newUser();
    for (const at of [-240, -180, -120, -60, 0]) {
      await d.event(user, 'deposit', usd(50), { at });
      await d.event(other, 'deposit', usd(50), { at });
    }
    await d.pass();
    const [open] = (await d.cases(user)).cases;
    const [closed] = (await d.cases(other)).cases;
    const frozen = await d.decideAndApprove(closed!.case_id, {
      action: 'freeze',
      reason: 'mule',
    });
    expect(frozen.statusCode).toBe(200);
    await d.t.advance(REVIEW_SLA_SECONDS);
    expect(await alertsFor(open!.case_id)).toEqual(['review_overdue', 'review_due_soon']);
    expect(await alertsFor(closed!.case_id)).toEqual([]);
  });
});
