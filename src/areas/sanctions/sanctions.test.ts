import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestTenant } from '../../../test/helpers/test-service.js';
import { WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';

describe('sanctions screening', () => {
  let t: TestService;
  let receiver: WebhookReceiver;
  let tenant: TestTenant;
  let n = 0;

  beforeAll(async () => {
    t = await TestService.start();
    receiver = await WebhookReceiver.start();
    tenant = await t.createTenant({ webhookUrl: receiver.url });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const person = (overrides: Record<string, string> = {}) => ({
    user_id: `user-${++n}`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    date_of_birth: '1990-12-10',
    nationality: 'GB',
    email: 'ada@example.com',
    ...overrides,
  });
  const screen = (body: object, key = tenant.apiKey) => t.api(key, 'POST', '/v1/sanctions/screen', body);
  const delivered = async (event: string, userId: string) => {
    await t.deliverWebhooks();
    return receiver
      .verified(tenant.signingSecret)
      .filter((e) => e.event === event && e.data.user_id === userId);
  };

  it('a clear screening is 201 with the clear shape; the same request again is 200; another is 409', async () => {
    const body = person();
    const first = await screen(body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      screen_id: expect.stringMatching(/^scr_/),
      user_id: body.user_id,
      status: 'clear',
      checked_at: t.platform.clock.now().toISOString(),
      transactions_held: false,
    });
    const again = await screen(body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const different = await screen({ ...body, last_name: 'Byron' });
    expect(different.statusCode).toBe(409);
    expect(different.json().error).toBe('already_screened');
  });

  it.each([
    ['first_name', { first_name: undefined }],
    ['date_of_birth', { date_of_birth: '10/12/1990' }],
    ['nationality', { nationality: 'GBR' }],
    ['email', { email: 'not-an-email' }],
  ])('answers 400 missing_fields naming %s', async (field, change) => {
    const body = { ...person(), ...change };
    const response = await screen(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('missing_fields');
    expect(response.json().message).toContain(field);
    expect(
      (await t.api(tenant.apiKey, 'GET', `/v1/sanctions/status?user_id=${body.user_id}`)).statusCode,
    ).toBe(404);
  });

  it.each([
    ['SanctionedSam', {}, 1, (s: number) => s >= 0.95],
    ['MaybeMarta', {}, 1, (s: number) => Math.abs(s - 0.85) < 0.02],
    ['Ada', { last_name: 'TestHit' }, 2, (s: number) => s > 0 && s <= 1],
  ])('the sandbox trigger %s holds the user pending review', async (firstName, extra, matches, scoreOk) => {
    const body = person({ first_name: firstName, ...extra });
    const response = await screen(body);
    expect(response.statusCode).toBe(201);
    const hit = response.json();
    expect(hit).toEqual({
      screen_id: expect.any(String),
      user_id: body.user_id,
      status: 'hit_review_pending',
      checked_at: expect.any(String),
      transactions_held: true,
      match_count: matches,
      highest_match_score: expect.any(Number),
      case_id: expect.stringMatching(/^case_/),
      signup_allowed: true,
      estimated_review_time: expect.any(String),
    });
    expect(scoreOk(hit.highest_match_score)).toBe(true);
    const [event] = await delivered('sanctions.hit', body.user_id);
    expect(event?.data).toMatchObject({
      case_id: hit.case_id,
      user_id: body.user_id,
      transactions_held: true,
      match_count: matches,
    });

    // Tipping-off: the matched entities appear only in the back office.
    const staff = await t.backoffice('GET', `/sanctions/cases/${hit.case_id}`);
    expect(staff.json().matches).toHaveLength(matches);
    for (const { name } of staff.json().matches as { name: string }[]) {
      expect(response.body).not.toContain(name);
      expect(JSON.stringify(event)).not.toContain(name);
    }
  });

  it('a reviewer clears a false positive: holds lifted, sanctions.cleared with the spec data', async () => {
    const body = person({ first_name: 'SanctionedSam' });
    const { case_id } = (await screen(body)).json();
    const decision = await t.backoffice('POST', `/sanctions/cases/${case_id}/decision`, {
      decision: 'cleared',
      reviewer: 'r.jones',
    });
    expect(decision.statusCode).toBe(200);
    const status = await t.api(tenant.apiKey, 'GET', `/v1/sanctions/status?user_id=${body.user_id}`);
    expect(status.json()).toMatchObject({
      user_id: body.user_id,
      status: 'cleared',
      transactions_held: false,
      case_id,
    });
    const [cleared] = await delivered('sanctions.cleared', body.user_id);
    expect(cleared?.data).toEqual({
      case_id,
      user_id: body.user_id,
      reviewer: 'r.jones',
      transactions_held: false,
    });

    const again = await t.backoffice('POST', `/sanctions/cases/${case_id}/decision`, {
      decision: 'confirmed',
      reviewer: 'x',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('case_already_decided');

    // A match a reviewer dismissed does not reopen a case when the user is re-screened.
    const rescreen = await t.backoffice('POST', '/sanctions/rescreen', { tenant_id: tenant.tenantId });
    expect(rescreen.json().new_hits).toBe(0);
    expect(
      (await t.api(tenant.apiKey, 'GET', `/v1/sanctions/status?user_id=${body.user_id}`)).json().status,
    ).toBe('cleared');
  });

  it('a reviewer confirms a real match: sanctions.confirmed and sanctions.account_frozen', async () => {
    const body = person({ last_name: 'TestHit' });
    const { case_id } = (await screen(body)).json();
    await t.backoffice('POST', `/sanctions/cases/${case_id}/decision`, {
      decision: 'confirmed',
      reviewer: 'r.jones',
    });
    expect(
      (await t.api(tenant.apiKey, 'GET', `/v1/sanctions/status?user_id=${body.user_id}`)).json(),
    ).toMatchObject({
      status: 'confirmed',
      transactions_held: true,
    });
    expect(await delivered('sanctions.confirmed', body.user_id)).toHaveLength(1);
    const [frozen] = await delivered('sanctions.account_frozen', body.user_id);
    expect(frozen?.data).toMatchObject({ case_id, user_id: body.user_id, transactions_held: true });
  });

  it('lists cases for reviewers by status', async () => {
    const body = person({ first_name: 'MaybeMo' });
    const { case_id } = (await screen(body)).json();
    const pending = await t.backoffice('GET', '/sanctions/cases?status=hit_review_pending');
    expect(pending.json().cases.map((c: { case_id: string }) => c.case_id)).toContain(case_id);
  });

  it("another tenant cannot read this tenant's screening", async () => {
    const body = person();
    await screen(body);
    const other = await t.createTenant();
    expect(
      (await t.api(other.apiKey, 'GET', `/v1/sanctions/status?user_id=${body.user_id}`)).statusCode,
    ).toBe(404);
  });

  it('a live tenant gets 403 until cut over, then 503 vendor_unavailable until the production matcher exists', async () => {
    const live = await t.createTenant({ environment: 'live' });
    const before = await screen(person(), live.apiKey);
    expect(before.statusCode).toBe(403);
    expect(before.json().error).toBe('cutover_required');
    await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['sanctions'] });
    const after = await screen(person(), live.apiKey);
    expect(after.statusCode).toBe(503);
    expect(after.json().error).toBe('vendor_unavailable');
  });

  it('re-screens quarterly on the service clock', async () => {
    const due = await t.db
      .selectFrom('scheduled_jobs')
      .select('due_at')
      .where('kind', '=', 'sanctions.rescreen_quarterly')
      .executeTakeFirstOrThrow();
    const seconds = Math.ceil((due.due_at.getTime() - t.platform.clock.now().getTime()) / 1000);
    await t.advance(seconds);
    const next = await t.db
      .selectFrom('scheduled_jobs')
      .select('due_at')
      .where('kind', '=', 'sanctions.rescreen_quarterly')
      .executeTakeFirstOrThrow();
    expect(next.due_at.getTime() - due.due_at.getTime()).toBe(91 * 86_400_000);
  });
});
