import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { sandboxMatcher } from './sanctions.matcher.js';
import { SanctionsDriver } from './sanctions.test-support.js';

describe('POST /v1/sanctions/screen and GET /v1/sanctions/status', () => {
  const suite = useSuite(() => SanctionsDriver.start());

  it('clear: 201 with the clear shape; the same request again is the original with 200; another is 409', async () => {
    const d = suite.current;
    const body = d.person();
    const first = await d.screen(body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      screen_id: expect.stringMatching(/^scr_/),
      user_id: body.user_id,
      status: 'clear',
      checked_at: d.t.platform.clock.now().toISOString(),
      transactions_held: false,
    });
    await d.t.advance(60);
    // The email is compared as an address: its case does not make another request.
    const again = await d.screen({ ...body, email: 'ADA@example.com' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const different = await d.screen({ ...body, last_name: 'Byron' });
    expect(different.statusCode).toBe(409);
    expect(different.json()).toEqual({
      error: 'already_screened',
      message: expect.stringContaining('/v1/sanctions/status'),
      request_id: expect.any(String),
    });
  });

  it.each([
    ['first_name', { first_name: undefined }],
    ['last_name', { last_name: '   ' }],
    ['user_id', { user_id: undefined }],
    ['date_of_birth', { date_of_birth: '10/12/1990' }],
    ['date_of_birth', { date_of_birth: '1990-02-30' }],
    ['nationality', { nationality: 'GBR' }],
    ['email', { email: 'not-an-email' }],
    ['channel', { channel: 'web' }],
  ])('answers 400 missing_fields naming %s', async (field, change: Record<string, string | undefined>) => {
    const d = suite.current;
    const body = { ...d.person(), ...change };
    const response = await d.screen(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'missing_fields', fields: [field] });
    expect(response.json().message).toContain(field);
    if (body.user_id) expect((await d.status(body.user_id)).statusCode).toBe(404);
  });

  it('names every missing or malformed field at once', async () => {
    const d = suite.current;
    const response = await d.screen({ user_id: 'u', first_name: 'Ada', nationality: 'gb', email: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('missing_fields');
    expect([...response.json().fields].sort()).toEqual([
      'date_of_birth',
      'email',
      'last_name',
      'nationality',
    ]);
  });

  it.each([
    ['first_name SanctionedSam', { first_name: 'SanctionedSam' }, 1, (s: number) => s >= 0.95],
    ['first_name Maybe…', { first_name: 'MaybeMarta' }, 1, (s: number) => Math.abs(s - 0.85) < 0.02],
    ['last_name TestHit', { last_name: 'TestHit' }, 2, (s: number) => s > 0 && s <= 1],
  ])(
    'the sandbox trigger %s: hit_review_pending with the hit shape and sanctions.hit',
    async (_name, change, matches, scoreOk) => {
      const d = suite.current;
      const body = d.person(change);
      const response = await d.screen(body);
      expect(response.statusCode).toBe(201);
      const hit = response.json();
      expect(hit).toEqual({
        screen_id: expect.stringMatching(/^scr_/),
        user_id: body.user_id,
        status: 'hit_review_pending',
        checked_at: d.t.platform.clock.now().toISOString(),
        transactions_held: true,
        match_count: matches,
        highest_match_score: expect.any(Number),
        case_id: expect.stringMatching(/^case_/),
        signup_allowed: true,
        estimated_review_time: '48 hours',
      });
      expect(scoreOk(hit.highest_match_score)).toBe(true);
      expect((await d.status(body.user_id)).json()).toEqual(hit);
      const [event, ...more] = await d.webhooks('sanctions.hit', body.user_id!);
      expect(more).toEqual([]);
      expect(event!.data).toEqual({
        screen_id: hit.screen_id,
        case_id: hit.case_id,
        user_id: body.user_id,
        status: 'hit_review_pending',
        match_count: matches,
        highest_match_score: hit.highest_match_score,
        transactions_held: true,
        signup_allowed: true,
      });
    },
  );

  it.each([
    ['first_name sanctionedsam', { first_name: 'sanctionedsam' }],
    ['first_name SanctionedSammy', { first_name: 'SanctionedSammy' }],
    ['first_name maybe…', { first_name: 'maybeMarta' }],
    ['last_name Maybe…', { last_name: 'MaybeMarta' }],
    ['last_name TestHits', { last_name: 'TestHits' }],
    ['first_name TestHit', { first_name: 'TestHit' }],
  ])('anything else is clear: %s', async (_name, change) => {
    const d = suite.current;
    const response = await d.screen(d.person(change));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ status: 'clear', transactions_held: false });
  });

  it('answers status 404 for a user never screened, and 400 missing_fields without user_id', async () => {
    const d = suite.current;
    expect((await d.status('nobody')).json().error).toBe('screen_not_found');
    const missing = await d.status(undefined);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'missing_fields', fields: ['user_id'] });
  });

  it("another tenant cannot read this tenant's screening, and screens the same user_id afresh", async () => {
    const d = suite.current;
    const body = d.person({ first_name: 'SanctionedSam' });
    await d.screen(body);
    const other = await d.t.createTenant();
    expect((await d.status(body.user_id, other.apiKey)).statusCode).toBe(404);
    const theirs = await d.screen({ ...body, first_name: 'Ada' }, other.apiKey);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().status).toBe('clear');
  });

  it('a live tenant gets 403 until cut over, then 409 vendor_not_configured until the production matcher exists', async () => {
    const d = suite.current;
    const live = await d.t.createTenant({ environment: 'live' });
    const before = await d.screen(d.person(), live.apiKey);
    expect(before.statusCode).toBe(403);
    expect(before.json().error).toBe('cutover_required');
    await d.t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['sanctions'] });
    const after = await d.screen(d.person(), live.apiKey);
    expect(after.statusCode).toBe(409);
    expect(after.json().error).toBe('vendor_not_configured');

    // The seam the production matcher plugs into: once set, a cut-over live tenant is screened by it.
    d.t.platform.vendors.sanctions.production = { ...sandboxMatcher, kind: 'production' };
    try {
      expect((await d.screen(d.person(), live.apiKey)).statusCode).toBe(201);
    } finally {
      delete d.t.platform.vendors.sanctions.production;
    }
  });
});
