import { beforeAll, describe, expect, it } from 'vitest';
import { AmlDriver } from '../../src/areas/aml/aml.test-support.js';
import { usd } from '../helpers/units.js';
import { AML_RULES } from '../../src/areas/aml/aml.rules.js';
import { SanctionsDriver } from '../../src/areas/sanctions/sanctions.test-support.js';
import { escapeHtml } from '../../src/platform/html.js';
import { createStaffMember, postForm, signInAs, type StaffSession } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';

/** The console's queues and case pages, worked by a reviewer and a supervisor as they would in a browser. */
describe('console: queues, case pages and approvals', () => {
  const suite = useSuite(() => SanctionsDriver.start());
  let reviewer: StaffSession;
  let supervisor: StaffSession;

  beforeAll(async () => {
    const t = suite.current.t;
    reviewer = await signInAs(t, await createStaffMember(t, 'reviewer', { displayName: 'Rita Reviewer' }));
    supervisor = await signInAs(
      t,
      await createStaffMember(t, 'supervisor', { displayName: 'Sam Supervisor' }),
    );
  });

  const view = async (session: StaffSession, url: string) => {
    const response = await suite.current.t.inject({
      method: 'GET',
      url,
      headers: { cookie: `console_session=${session.cookie}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };
  const queue = (session: StaffSession, query = '') =>
    view(session, `/console/queues/sanctions?tenant_id=${suite.current.tenant.tenantId}${query}`);

  /** A sanctions hit opened through the tenant API. */
  const hit = async (change: Record<string, string> = { last_name: 'TestHit' }) => {
    const d = suite.current;
    const body = d.person(change);
    const response = await d.screen(body);
    return { userId: body.user_id!, caseId: response.json().case_id as string };
  };
  const caseOf = (session: StaffSession, caseId: string) => view(session, `/console/sanctions/${caseId}`);

  it('lists the oldest-due hit first, with a live countdown to its due time', async () => {
    const d = suite.current;
    const openedAt = d.t.platform.clock.now();
    const older = await hit();
    await d.t.advance(60);
    const newer = await hit();
    const page = await queue(reviewer);
    expect(page.indexOf(older.caseId)).toBeGreaterThan(-1);
    expect(page.indexOf(older.caseId)).toBeLessThan(page.indexOf(newer.caseId));
    const due = new Date(openedAt.getTime() + 48 * 3600 * 1000).toISOString();
    expect(page).toContain(`<span class="countdown" data-due="${due}"`);
    expect(page).toContain(`<tr data-href="/console/sanctions/${older.caseId}">`);
    expect(page).toContain('<kbd>j</kbd>');
  });

  it('shows the screened person beside each matched list entry', async () => {
    const { caseId, userId } = await hit();
    const page = await caseOf(reviewer, caseId);
    expect(page.match(/class="evidence"/g)).toHaveLength(2);
    for (const seen of [
      'Ada',
      'TestHit',
      '1990-12-10',
      'GB',
      'Test HIT',
      'Testa HITT',
      'SANDBOX',
      'sandbox-1',
    ]) {
      expect(page).toContain(seen);
    }
    expect(page).toContain('0.91');
    expect(page).toContain(`/console/players/${suite.current.tenant.tenantId}/${userId}`);
    expect(page).toContain('data-decision-start');
  });

  it('take assigns the case to me: the queue names me and the "me" filter finds it', async () => {
    const { caseId } = await hit();
    const taken = await postForm(suite.current.t, reviewer, `/console/cases/sanctions/${caseId}/take`, {});
    expect(taken.statusCode).toBe(303);
    expect(taken.headers.location).toMatch(new RegExp(`^/console/sanctions/${caseId}\\?notice=`));
    expect(await caseOf(reviewer, caseId)).toContain('Assigned to: <strong>you</strong>');
    const mine = await queue(reviewer, '&assignee=me');
    expect(mine).toContain(caseId);
    expect(mine).toContain('Rita Reviewer (you)');
    expect(await queue(reviewer, '&assignee=unassigned')).not.toContain(caseId);
    expect(await queue(supervisor, '&assignee=me')).not.toContain(caseId);
  });

  it('confirm is a proposal: no webhook until a supervisor approves it through the console', async () => {
    const d = suite.current;
    const { caseId, userId } = await hit();
    const proposed = await postForm(d.t, reviewer, `/console/sanctions/${caseId}/decision`, {
      decision: 'confirmed',
      reason: 'date of birth and nationality agree with the listed entry',
    });
    expect(proposed.statusCode).toBe(303);

    const reviewerPage = await caseOf(reviewer, caseId);
    expect(reviewerPage).toContain('pending approval');
    expect(reviewerPage).toContain('A second member of staff must approve');
    expect(reviewerPage).not.toContain('>Approve</button>');
    expect(await d.webhooks('sanctions.confirmed', userId)).toEqual([]);
    expect((await postForm(d.t, reviewer, `/console/sanctions/${caseId}/approve`, {})).statusCode).toBe(403);
    expect(await view(reviewer, '/console/approvals')).toContain(caseId);

    const supervisorPage = await caseOf(supervisor, caseId);
    expect(supervisorPage).toContain('Rita Reviewer');
    expect(supervisorPage).toContain('>Approve</button>');
    expect(supervisorPage).toContain('Reason for rejecting');
    const approved = await postForm(d.t, supervisor, `/console/sanctions/${caseId}/approve`, {});
    expect(approved.statusCode).toBe(303);

    const data = {
      case_id: caseId,
      user_id: userId,
      reviewer: reviewer.member.reviewerRef,
      transactions_held: true,
    };
    expect((await d.webhooks('sanctions.confirmed', userId)).map((e) => e.data)).toEqual([data]);
    expect((await d.webhooks('sanctions.account_frozen', userId)).map((e) => e.data)).toEqual([
      { ...data, funds_frozen: true },
    ]);
    const after = await caseOf(reviewer, caseId);
    expect(after).toContain('approved');
    expect(after).not.toContain('Submit decision');
  });

  it('a rejected proposal goes into the history and the hit awaits a decision again', async () => {
    const d = suite.current;
    const { caseId, userId } = await hit();
    await postForm(d.t, reviewer, `/console/sanctions/${caseId}/decision`, {
      decision: 'confirmed',
      reason: 'same name',
    });
    const rejected = await postForm(d.t, supervisor, `/console/sanctions/${caseId}/reject`, {
      reason: 'the dates of birth are twenty years apart',
    });
    expect(rejected.statusCode).toBe(303);
    const page = await caseOf(reviewer, caseId);
    expect(page).toContain('Four-eyes history');
    expect(page).toContain('the dates of birth are twenty years apart');
    expect(page).toContain('Submit decision');
    expect(await d.webhooks('sanctions.confirmed', userId)).toEqual([]);
  });

  it('refuses a post without the anti-forgery field and changes nothing', async () => {
    const d = suite.current;
    const { caseId, userId } = await hit();
    const forged = await postForm(
      d.t,
      reviewer,
      `/console/sanctions/${caseId}/decision`,
      { decision: 'cleared', reason: 'looks fine' },
      { csrf: false },
    );
    expect(forged.statusCode).toBe(403);
    expect(await caseOf(reviewer, caseId)).toContain('hit review pending');
    expect(await d.webhooks('sanctions.cleared', userId)).toEqual([]);
  });

  it('notes appear with their author and time', async () => {
    const { caseId } = await hit();
    const added = await postForm(suite.current.t, reviewer, `/console/cases/sanctions/${caseId}/notes`, {
      body: 'Asked the tenant for a passport scan',
    });
    expect(added.statusCode).toBe(303);
    const page = await caseOf(supervisor, caseId);
    expect(page).toMatch(/<strong>Rita Reviewer<\/strong> · <time datetime="[^"]+">/);
    expect(page).toContain('Asked the tenant for a passport scan');
  });

  it('escapes what tenants send: a user id with markup renders as text', async () => {
    const { caseId } = await hit({ first_name: 'SanctionedSam', user_id: '<script>alert(1)</script>' });
    for (const page of [await caseOf(reviewer, caseId), await queue(reviewer)]) {
      expect(page).not.toContain('<script>alert(1)</script>');
      expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
  });

  it('an AML case page shows each rule with its description and amounts in the original currency and USD', async () => {
    const d = suite.current;
    const aml = new AmlDriver(d.t, d.tenant, d.receiver);
    expect((await d.t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 1.1 })).statusCode).toBe(200);
    const user = aml.newUser();
    // five deposits within the hour.
    for (const at of [-240, -180, -120, -60, 0])
      await aml.event(user, 'deposit', usd(50), { at, currency: 'EUR' });
    await aml.pass();
    const caseId = (await aml.cases(user)).cases[0]!.case_id;
    const page = await view(reviewer, `/console/aml/${caseId}`);
    expect(page).toContain(escapeHtml(AML_RULES['R-002'].description));
    expect(page).toContain('50.00 EUR');
    expect(page).toContain('55.00 USD');
    expect(page).toContain('Recent events of this user');
    expect(page).toContain('Escalate for a suspicious activity report (needs a second approver)');
    expect(await view(reviewer, `/console/queues/aml?tenant_id=${d.tenant.tenantId}`)).toContain(caseId);

    await postForm(d.t, reviewer, `/console/aml/${caseId}/decision`, {
      decision: 'escalate',
      reason: 'structuring',
    });
    expect(aml.received('aml.escalated', user)).toEqual([]);
    expect((await postForm(d.t, supervisor, `/console/aml/${caseId}/approve`, {})).statusCode).toBe(303);
    await aml.pass();
    expect(aml.received('aml.escalated', user)).toHaveLength(1);
  });

  it('a KYC check awaiting review is approved from its console page', async () => {
    const d = suite.current;
    const userId = `kyc-player-${Date.now()}`;
    const started = await d.t.api(d.tenant.apiKey, 'POST', '/v1/kyc/start', {
      user_id: userId,
      email: 'player@example.com',
      phone: '+15555550100',
      withdrawal_amount_cents: 30_000,
      currency: 'USD',
      withdrawal_id: `wd-${userId}`,
    });
    const { kyc_check_id: checkId, vendor_access_token: token } = started.json();
    for (const step of ['begin', 'submit']) {
      await d.t.inject({ method: 'POST', url: `/v1/kyc/sandbox-vendor/${token}/${step}` });
    }
    expect(await view(reviewer, `/console/queues/kyc?tenant_id=${d.tenant.tenantId}`)).toContain(checkId);
    const page = await view(reviewer, `/console/kyc/${checkId}`);
    expect(page).toContain('Email confirmed by one-time code');
    expect(page).toContain('awaiting manual review');
    const decided = await postForm(d.t, reviewer, `/console/kyc/${checkId}/decision`, {
      decision: 'approve',
      reason: 'documents checked by hand',
    });
    expect(decided.statusCode).toBe(303);
    expect(await view(reviewer, `/console/kyc/${checkId}`)).toMatch(/approved by\s+Rita Reviewer/);
    const approved = await d.webhooks('kyc.approved', userId);
    expect(approved).toHaveLength(1);
  });

  it('marks a hit past its 48 hours as breached, in words', async () => {
    const d = suite.current;
    const { caseId } = await hit();
    await d.t.advance(49 * 3600);
    // The idle timeout ended the sessions meanwhile: sign in again.
    reviewer = await signInAs(d.t, reviewer.member);
    const page = await queue(reviewer);
    const row = page.slice(page.indexOf(`<tr data-href="/console/sanctions/${caseId}">`));
    expect(row.slice(0, row.indexOf('</tr>'))).toMatch(
      /overdue by [\s\S]*<span class="badge breached">breached<\/span>/,
    );
    // The dashboard's overdue link: only what is past due.
    const { caseId: fresh } = await hit();
    const overdue = await queue(reviewer, '&overdue=true');
    expect(overdue).toContain(`/console/sanctions/${caseId}`);
    expect(overdue).not.toContain(`/console/sanctions/${fresh}`);
    expect(await queue(reviewer)).toContain(`/console/sanctions/${fresh}`);
  });
});
