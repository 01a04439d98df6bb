import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxMatcher } from './sanctions.matcher.js';
import { QUARTER_SECONDS, QUARTERLY_RESCREEN_JOB } from './sanctions.rescreen.js';
import { sanctionsMatchers } from './sanctions.service.js';
import { SanctionsDriver, withListEntry } from './sanctions.test-support.js';

const ENTRY = { entity_id: 'sandbox-new-1', name: 'Newly LISTED', score: 0.93 };

describe('sanctions re-screening', () => {
  let d: SanctionsDriver;
  beforeAll(async () => {
    d = await SanctionsDriver.start();
  });
  afterAll(async () => d.close());

  const screened = async (change: Record<string, string>) => {
    const body = d.person(change);
    const response = await d.screen(body);
    return { userId: body.user_id!, caseId: response.json().case_id as string | undefined };
  };
  const rescreen = (body: object = { tenant_id: d.tenant.tenantId }) =>
    d.t.backoffice('POST', '/sanctions/rescreen', body);

  it('on demand: a new hit moves clear and cleared users to hit_review_pending with sanctions.hit', async () => {
    const lastName = `Listed${Date.now()}`;
    const clear = await screened({ last_name: lastName });
    const cleared = await screened({ first_name: 'SanctionedSam', last_name: lastName });
    await d.decide(cleared.caseId!, 'cleared');
    const untouched = await screened({});
    const pending = await screened({ first_name: 'MaybeMo', last_name: lastName });
    await d.t.advance(3600);

    const response = await withListEntry(lastName, ENTRY, () => rescreen());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ new_hits: 2, skipped: 0 });
    const now = d.t.platform.clock.now().toISOString();

    for (const user of [clear, cleared]) {
      const status = (await d.status(user.userId)).json();
      expect(status).toMatchObject({
        status: 'hit_review_pending',
        transactions_held: true,
        match_count: 1,
        highest_match_score: ENTRY.score,
        checked_at: now,
      });
      expect(status.case_id).not.toBe(user.caseId);
      const hits = await d.webhooks('sanctions.hit', user.userId);
      const expected = [user.caseId, status.case_id].filter(Boolean).sort();
      expect(hits.map((e) => e.data.case_id).sort()).toEqual(expected);
      expect(hits.find((e) => e.data.case_id === status.case_id)!.data).toMatchObject({
        status: 'hit_review_pending',
        match_count: 1,
      });
      // Only the new entry is put to the reviewer: the dismissed one stays dismissed.
      const staff = (await d.t.backoffice('GET', `/sanctions/cases/${status.case_id}`)).json();
      expect(staff).toMatchObject({ trigger: 'rescreen', status: 'hit_review_pending' });
      expect(staff.matches).toEqual([{ list: 'SANDBOX', ...ENTRY }]);
    }
    // A user the new entry does not match stays clear, checked again now.
    expect((await d.status(untouched.userId)).json()).toMatchObject({ status: 'clear', checked_at: now });
    // A user already awaiting review keeps the case they have.
    expect((await d.status(pending.userId)).json().case_id).toBe(pending.caseId);
  });

  it('a match a reviewer dismissed does not reopen a case', async () => {
    const { userId, caseId } = await screened({ last_name: 'TestHit' });
    await d.decide(caseId!, 'cleared');
    expect((await rescreen()).json().new_hits).toBe(0);
    expect((await d.status(userId)).json()).toMatchObject({ status: 'cleared', case_id: caseId });
    expect(await d.webhooks('sanctions.hit', userId)).toHaveLength(1);
  });

  it('re-screens every tenant quarterly on the service clock', async () => {
    const lastName = `Quarterly${Date.now()}`;
    const { userId } = await screened({ last_name: lastName });
    const due = async () =>
      (
        await d.t.db
          .selectFrom('scheduled_jobs')
          .select('due_at')
          .where('kind', '=', QUARTERLY_RESCREEN_JOB)
          .executeTakeFirstOrThrow()
      ).due_at;
    const first = await due();
    const seconds = Math.ceil((first.getTime() - d.t.platform.clock.now().getTime()) / 1000);

    await withListEntry(lastName, ENTRY, async () => {
      await d.t.advance(seconds - 1);
      expect((await d.status(userId)).json().status).toBe('clear');
      await d.t.advance(1);
    });
    expect((await d.status(userId)).json()).toMatchObject({ status: 'hit_review_pending', match_count: 1 });
    expect(await d.webhooks('sanctions.hit', userId)).toHaveLength(1);
    expect((await due()).getTime() - first.getTime()).toBe(QUARTER_SECONDS * 1000);
  });

  it("skips a live tenant's users while its production matcher is not configured; naming it is 409", async () => {
    const live = await d.t.createTenant({ environment: 'live' });
    await d.t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['sanctions'] });
    sanctionsMatchers.production = { ...sandboxMatcher, kind: 'production' };
    try {
      expect((await d.screen(d.person(), live.apiKey)).statusCode).toBe(201);
    } finally {
      delete sanctionsMatchers.production;
    }
    expect((await rescreen({})).json().skipped).toBe(1);
    const named = await rescreen({ tenant_id: live.tenantId });
    expect(named.statusCode).toBe(409);
    expect(named.json().error).toBe('vendor_not_configured');
    expect((await rescreen({ tenant_id: 'ten_missing' })).statusCode).toBe(404);
  });
});
