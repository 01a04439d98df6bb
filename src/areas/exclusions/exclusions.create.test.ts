import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { DURATIONS, expiresAt } from './exclusions.rules.js';
import { check, exclude, formatted, uniqueEmail, uniquePhone, userId } from './exclusions.test-support.js';

describe('POST /v1/exclusions', () => {
  const suite = useSuite(() => TenantDriver.start());

  it('registers a timed exclusion with 201 and exactly the Exclusion fields', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const now = t.platform.clock.now();
    const user = userId();
    const response = await exclude(t, tenant, {
      user_id: user,
      duration: 'duration_7d',
      email: uniqueEmail(),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      exclusion_id: expect.stringMatching(/^exc_[0-9a-f]{32}$/),
      user_id: user,
      duration: 'duration_7d',
      effective_from: now.toISOString(),
      expires_at: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
      is_permanent: false,
      // Not yet handed to the regulator: that is the regulatory reports' hand-over, not the registration.
      regulator_propagated: false,
    });
  });

  it('sets expires_at for every duration: hours and days exactly, months and years on the calendar', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const now = t.platform.clock.now();
    const day = 86_400_000;
    const spans: Record<string, (ms: number) => boolean> = {
      duration_24h: (ms) => ms === day,
      duration_7d: (ms) => ms === 7 * day,
      duration_30d: (ms) => ms === 30 * day,
      duration_6m: (ms) => ms >= 181 * day && ms <= 184 * day,
      duration_1y: (ms) => ms === 365 * day || ms === 366 * day,
    };
    for (const duration of DURATIONS.filter((d) => d !== 'duration_permanent')) {
      const response = await exclude(t, tenant, { user_id: userId(), duration, phone: uniquePhone() });
      expect(response.statusCode).toBe(201);
      const { expires_at } = response.json<{ expires_at: string }>();
      expect(expires_at).toBe(expiresAt(duration, now)!.toISOString());
      expect(spans[duration]!(new Date(expires_at).getTime() - now.getTime())).toBe(true);
    }
  });

  it('counts calendar months in UTC, clamped to the end of a shorter month', () => {
    const at = (iso: string, duration: (typeof DURATIONS)[number]) =>
      expiresAt(duration, new Date(iso))?.toISOString();
    expect(at('2026-08-31T10:15:00.000Z', 'duration_6m')).toBe('2027-02-28T10:15:00.000Z');
    expect(at('2027-08-31T10:15:00.000Z', 'duration_6m')).toBe('2028-02-29T10:15:00.000Z');
    expect(at('2026-01-15T23:59:59.999Z', 'duration_6m')).toBe('2026-07-15T23:59:59.999Z');
    expect(at('2028-02-29T00:00:00.000Z', 'duration_1y')).toBe('2029-02-28T00:00:00.000Z');
    expect(at('2026-03-01T00:00:00.000Z', 'duration_1y')).toBe('2027-03-01T00:00:00.000Z');
    expect(at('2026-03-01T00:00:00.000Z', 'duration_permanent')).toBeUndefined();
  });

  it('registers a permanent exclusion with expires_at null', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const response = await exclude(t, tenant, {
      user_id: userId(),
      duration: 'duration_permanent',
      email: uniqueEmail(),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      duration: 'duration_permanent',
      expires_at: null,
      is_permanent: true,
      regulator_propagated: false,
    });
  });

  it('answers a repeat of the same request with 200 and the original, however the contact details are written', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const [email, phone, user] = [uniqueEmail(), uniquePhone(), userId()];
    const first = await exclude(t, tenant, {
      user_id: user,
      duration: 'duration_30d',
      email,
      phone,
      initiated_at: '2030-01-01T11:00:00Z',
    });
    expect(first.statusCode).toBe(201);
    await t.advance(60);
    const again = await exclude(t, tenant, {
      user_id: user,
      duration: 'duration_30d',
      email: `  ${email.toUpperCase()} `,
      phone: formatted(phone),
      reason: 'self_initiated',
      initiated_at: '2030-01-01T11:01:00Z',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.json().regulator_propagated).toBe(false);
    const rows = await t.db
      .selectFrom('exclusions')
      .selectAll()
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: email.toLowerCase(),
      phone,
      reason: 'self_initiated',
      status: 'active',
    });
    expect(rows[0]!.initiated_at?.toISOString()).toBe('2030-01-01T11:00:00.000Z');
  });

  it('answers a different request on the same (tenant, user, duration) with 409 already_excluded', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const user = userId();
    expect(
      (await exclude(t, tenant, { user_id: user, duration: 'duration_24h', email: uniqueEmail() }))
        .statusCode,
    ).toBe(201);
    const other = await exclude(t, tenant, { user_id: user, duration: 'duration_24h', email: uniqueEmail() });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({
      error: 'already_excluded',
      message: expect.any(String),
      request_id: expect.stringMatching(/^req_/),
    });
    // Another duration is another key: a second, longer exclusion of the same user is registered.
    expect(
      (await exclude(t, tenant, { user_id: user, duration: 'duration_1y', email: uniqueEmail() })).statusCode,
    ).toBe(201);
  });

  it('refuses to weaken a permanent exclusion with 409, and still answers repeats of earlier requests', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const [user, email] = [userId(), uniqueEmail()];
    const timed = await exclude(t, tenant, { user_id: user, duration: 'duration_7d', email });
    const permanent = await exclude(t, tenant, { user_id: user, duration: 'duration_permanent', email });
    expect([timed.statusCode, permanent.statusCode]).toEqual([201, 201]);
    for (const duration of ['duration_24h', 'duration_30d', 'duration_6m', 'duration_1y']) {
      const weaker = await exclude(t, tenant, { user_id: user, duration, email });
      expect(weaker.statusCode).toBe(409);
      expect(weaker.json().error).toBe('already_excluded');
    }
    expect(
      (await exclude(t, tenant, { user_id: user, duration: 'duration_permanent', email })).json(),
    ).toEqual(permanent.json());
    const repeat = await exclude(t, tenant, { user_id: user, duration: 'duration_7d', email });
    expect([repeat.statusCode, repeat.json()]).toEqual([200, timed.json()]);
    const rows = await t.db
      .selectFrom('exclusions')
      .select('duration')
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    expect(rows.map((r) => r.duration).sort()).toEqual(['duration_7d', 'duration_permanent']);
  });

  it('keeps a permanent exclusion: no API removes it and no time ends it', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const email = uniqueEmail();
    const created = (
      await exclude(t, tenant, { user_id: userId(), duration: 'duration_permanent', email })
    ).json();
    for (const [method, url] of [
      ['DELETE', `/v1/exclusions/${created.exclusion_id}`],
      ['PUT', `/v1/exclusions/${created.exclusion_id}`],
      ['DELETE', '/v1/exclusions'],
    ] as const) {
      const response = await t.api(tenant.apiKey, method, url);
      expect([url, response.statusCode, response.json().error]).toEqual([url, 404, 'not_found']);
    }
    await t.advance(2 * 366 * 86_400);
    expect((await check(t, tenant, { email })).json()).toEqual({
      is_excluded: true,
      exclusion_id: created.exclusion_id,
      duration: 'duration_permanent',
      expires_at: null,
      is_permanent: true,
      source: 'operator',
    });
    const expired = await t.db
      .selectFrom('events')
      .select('event_id')
      .where('event', '=', 'exclusion.expired')
      .where(sql<boolean>`payload::json -> 'data' ->> 'exclusion_id' = ${created.exclusion_id}`)
      .execute();
    expect(expired).toEqual([]);
  });

  it.each([
    ['neither email nor phone', { user_id: 'u1', duration: 'duration_7d' }],
    ['a blank email and no phone', { user_id: 'u1', duration: 'duration_7d', email: '   ' }],
    ['an unparseable email', { user_id: 'u1', duration: 'duration_7d', email: 'not-an-email' }],
    ['an email without a domain dot', { user_id: 'u1', duration: 'duration_7d', email: 'a@localhost' }],
    ['an unparseable phone', { user_id: 'u1', duration: 'duration_7d', phone: '12345' }],
    ['a phone in national form', { user_id: 'u1', duration: 'duration_7d', phone: '020 7946 0958' }],
    [
      'a valid email with a bad phone',
      { user_id: 'u1', duration: 'duration_7d', email: 'a@b.com', phone: '+1 555' },
    ],
    ['no user_id', { duration: 'duration_7d', email: 'a@b.com' }],
    ['an unknown duration', { user_id: 'u1', duration: 'duration_2w', email: 'a@b.com' }],
    [
      'an initiated_at that is not a timestamp',
      { user_id: 'u1', duration: 'duration_7d', email: 'a@b.com', initiated_at: 'yesterday' },
    ],
    ['an unknown field', { user_id: 'u1', duration: 'duration_7d', email: 'a@b.com', is_permanent: true }],
    ['a number as user_id', { user_id: 42, duration: 'duration_7d', email: 'a@b.com' }],
  ])('answers %s with 400 invalid_payload', async (_name, body) => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const response = await exclude(t, tenant, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_payload',
      message: expect.any(String),
      request_id: expect.any(String),
    });
    const rows = await t.db
      .selectFrom('exclusions')
      .select('exclusion_id')
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('answers 10 concurrent identical requests with one 201 and nine 200 of one exclusion', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const body = { user_id: userId(), duration: 'duration_6m', email: uniqueEmail(), phone: uniquePhone() };
    const responses = await Promise.all(Array.from({ length: 10 }, () => exclude(t, tenant, body)));
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.json().exclusion_id)).size).toBe(1);
    const rows = await t.db
      .selectFrom('exclusions')
      .select('exclusion_id')
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    expect(rows).toHaveLength(1);
    const jobs = await t.db
      .selectFrom('scheduled_jobs')
      .select('job_id')
      .where('subject_id', '=', rows[0]!.exclusion_id)
      .execute();
    expect(jobs).toHaveLength(1);
  });
});
