import { describe, expect, it } from 'vitest';
import { staffOf } from '../../../test/helpers/staff-driver.js';
import { useSuite } from '../../../test/helpers/suite.js';
import { sandboxMatcher } from './sanctions.matcher.js';
import { SanctionsDriver, withListEntry } from './sanctions.test-support.js';

const ENTRY = { entity_id: 'sandbox-new-1', name: 'Newly LISTED', score: 0.93 };

describe('sanctions re-screening', () => {
  const suite = useSuite(() => SanctionsDriver.start());

  const screened = async (change: Record<string, string>) => {
    const d = suite.current;
    const body = d.person(change);
    const response = await d.screen(body);
    return { userId: body.user_id!, caseId: response.json().case_id as string | undefined };
  };
  const rescreen = (body: object = { tenant_id: suite.current.tenant.tenantId }) =>
    suite.current.t.backoffice('POST', '/sanctions/rescreen', body);

  it('on demand: a new hit moves clear and cleared users to hit_review_pending with sanctions.hit', async () => {
    const d = suite.current;
    const lastName = `Listed${Date.now()}`;
    const clear = await screened({ last_name: lastName });
    const cleared = await screened({ first_name: 'SanctionedSam', last_name: lastName });
    await d.decide(cleared.caseId!, 'cleared');
    const untouched = await screened({});
    const pending = await screened({ first_name: 'MaybeMo', last_name: lastName });
    await d.t.advance(3600);

    const response = await withListEntry(d.t, lastName, ENTRY, () => rescreen());
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
    const d = suite.current;
    const { userId, caseId } = await screened({ last_name: 'TestHit' });
    await d.decide(caseId!, 'cleared');
    expect((await rescreen()).json().new_hits).toBe(0);
    expect((await d.status(userId)).json()).toMatchObject({ status: 'cleared', case_id: caseId });
    expect(await d.webhooks('sanctions.hit', userId)).toHaveLength(1);
  });

  it("skips a live tenant's users while its production matcher is not configured; naming it is 409", async () => {
    const d = suite.current;
    const live = await d.t.createTenant({ environment: 'live' });
    await d.t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['sanctions'] });
    d.t.platform.vendors.sanctions.production = { ...sandboxMatcher, kind: 'production' };
    try {
      expect((await d.screen(d.person(), live.apiKey)).statusCode).toBe(201);
    } finally {
      delete d.t.platform.vendors.sanctions.production;
    }
    expect((await rescreen({})).json().skipped).toBe(1);
    const named = await rescreen({ tenant_id: live.tenantId });
    expect(named.statusCode).toBe(409);
    expect(named.json().error).toBe('vendor_not_configured');
    expect((await rescreen({ tenant_id: 'ten_missing' })).statusCode).toBe(404);
  });

  const rescreenUser = (userId: string, body: object) => {
    const d = suite.current;
    return d.t.asStaff(
      'reviewer',
      'POST',
      `/sanctions/tenants/${d.tenant.tenantId}/users/${userId}/rescreen`,
      body,
    );
  };

  it('on demand for one user, with a corrected name: the stored subject is screened again, audited', async () => {
    const d = suite.current;
    const lastName = `Corrected${Date.now()}`;
    const { userId } = await screened({ last_name: 'Lovelace' });
    await d.t.advance(60);
    const noReason = await rescreenUser(userId, { last_name: lastName });
    expect(noReason.statusCode).toBe(400);

    const response = await withListEntry(d.t, lastName, ENTRY, () =>
      rescreenUser(userId, {
        reason: 'player corrected their surname',
        last_name: lastName,
      }),
    );
    expect(response.statusCode).toBe(200);
    const now = d.t.platform.clock.now().toISOString();
    expect(response.json()).toMatchObject({
      user_id: userId,
      status: 'hit_review_pending',
      match_count: 1,
      checked_at: now,
      transactions_held: true,
    });
    const caseId = response.json().case_id as string;
    expect((await d.webhooks('sanctions.hit', userId)).map((e) => e.data.case_id)).toEqual([caseId]);
    const stored = await d.t.db
      .selectFrom('sanctions_screens')
      .select(['first_name', 'last_name'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ first_name: 'Ada', last_name: lastName });
    const log = (await d.t.backoffice('GET', `/tenants/${d.tenant.tenantId}/audit-log?limit=1000`)).json();
    expect(
      log.entries.filter((e: { details: { user_id?: string } }) => e.details.user_id === userId),
    ).toEqual([
      expect.objectContaining({
        action: 'sanctions.user_rescreened',
        actor: (await staffOf(d.t, 'reviewer')).member.staffId,
        request_id: response.headers['x-request-id'],
        details: expect.objectContaining({
          reason: 'player corrected their surname',
          corrected: ['last_name'],
          new_case_id: caseId,
        }),
      }),
    ]);

    // A hit awaiting review is decided first; an unknown user is 404.
    const pending = await rescreenUser(userId, { reason: 'again' });
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error).toBe('rescreen_not_allowed');
    expect((await rescreenUser('nobody', { reason: 'x' })).statusCode).toBe(404);
  });

  it('on demand for a cleared user with a corrected date of birth: the dismissed match is judged again, as a new case', async () => {
    const d = suite.current;
    const { userId, caseId } = await screened({ last_name: 'TestHit' });
    await d.decide(caseId!, 'cleared');
    await d.t.advance(60);
    const unchanged = await rescreenUser(userId, { reason: 'routine check before a large withdrawal' });
    expect(unchanged.json()).toMatchObject({ status: 'cleared', case_id: caseId });
    // The dismissal judged the details screened then; corrected details are a new screening.
    const response = await rescreenUser(userId, {
      reason: 'date of birth corrected from the passport',
      date_of_birth: '1991-01-02',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'hit_review_pending',
      transactions_held: true,
      match_count: 2,
      case_id: expect.not.stringMatching(caseId!),
      checked_at: d.t.platform.clock.now().toISOString(),
    });
  });
});
