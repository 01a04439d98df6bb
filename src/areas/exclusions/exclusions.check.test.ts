import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { CompiledQuery, sql } from 'kysely';
import { bindChecks } from './statements/exclusion-check.js';
import {
  check,
  exclude,
  formatted,
  regulator,
  uniqueEmail,
  uniquePhone,
  userId,
} from './exclusions.test-support.js';

describe('GET /v1/exclusions/check', () => {
  const suite = useSuite(() => TenantDriver.start());

  it('matches an email case- and whitespace-insensitively with exactly the check-result fields', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const email = uniqueEmail();
    const created = (await exclude(t, tenant, { user_id: userId(), duration: 'duration_30d', email })).json();
    const response = await check(t, tenant, { email: `  ${email.toLowerCase()}\t` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      is_excluded: true,
      exclusion_id: created.exclusion_id,
      duration: 'duration_30d',
      expires_at: created.expires_at,
      is_permanent: false,
      source: 'operator',
    });
  });

  it('matches a phone however it is formatted', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const phone = uniquePhone();
    const created = (
      await exclude(t, tenant, { user_id: userId(), duration: 'duration_7d', phone: formatted(phone) })
    ).json();
    for (const written of [
      phone,
      formatted(phone),
      `${phone.slice(0, 2)}-${phone.slice(2, 5)}-${phone.slice(5)}`,
    ]) {
      const response = await check(t, tenant, { phone: written });
      expect(response.json()).toMatchObject({ is_excluded: true, exclusion_id: created.exclusion_id });
    }
    // Matching on either: a check with an unrelated email and the registered phone still matches.
    expect((await check(t, tenant, { email: uniqueEmail(), phone })).json().is_excluded).toBe(true);
  });

  it('answers exactly {is_excluded: false} when nothing matches', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const response = await check(t, tenant, { email: uniqueEmail(), phone: uniquePhone() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ is_excluded: false });
  });

  it.each([
    ['neither email nor phone', ''],
    ['blank parameters', '?email=&phone=%20'],
    ['an unparseable email', '?email=nobody'],
    ['an unparseable phone', '?phone=555'],
    ["a '+' left unencoded (it arrives as a space)", '?phone=+14155552671'],
    ['a non-boolean include_regulator', '?email=a%40b.com&include_regulator=maybe'],
  ])('answers %s with 400 invalid_payload', async (_name, query) => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const response = await t.api(tenant.apiKey, 'GET', `/v1/exclusions/check${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_payload');
  });

  it('returns the most restrictive active match: permanent first, otherwise the latest expiry', async () => {
    const { t } = suite.current;
    const [a, b] = [await t.createTenant(), await t.createTenant()];
    const [email, phone] = [uniqueEmail(), uniquePhone()];
    await exclude(t, a, { user_id: userId(), duration: 'duration_30d', email });
    const longest = (await exclude(t, b, { user_id: userId(), duration: 'duration_1y', phone })).json();
    await exclude(t, a, { user_id: userId(), duration: 'duration_6m', email, phone });
    expect((await check(t, a, { email, phone })).json()).toMatchObject({
      exclusion_id: longest.exclusion_id,
      duration: 'duration_1y',
      source: 'regulator_comprehensive',
    });
    const [permanent] = (
      await regulator(t, [{ email, duration: 'duration_permanent', environment: 'sandbox' }])
    ).json().exclusions;
    expect((await check(t, a, { phone, email })).json()).toEqual({
      is_excluded: true,
      exclusion_id: permanent.exclusion_id,
      duration: 'duration_permanent',
      expires_at: null,
      is_permanent: true,
      source: 'regulator_comprehensive',
    });
  });

  it("matches another tenant's exclusion as regulator_comprehensive and the tenant's own as operator, leaking nothing else", async () => {
    const { t } = suite.current;
    const [a, b] = [await t.createTenant(), await t.createTenant()];
    const email = uniqueEmail();
    const created = (
      await exclude(t, a, { user_id: 'secret-user-of-a', duration: 'duration_24h', email })
    ).json();
    const own = (await check(t, a, { email })).json();
    const other = (await check(t, b, { email })).json();
    expect(own).toMatchObject({ exclusion_id: created.exclusion_id, source: 'operator' });
    expect(other).toEqual({ ...own, source: 'regulator_comprehensive' });
    expect(JSON.stringify(other)).not.toContain('secret-user-of-a');
    expect(JSON.stringify(other)).not.toContain(a.tenantId);
  });

  it('never mixes environments: a live tenant never sees sandbox rows and the other way round', async () => {
    const { t } = suite.current;
    const sandbox = await t.createTenant({ environment: 'sandbox' });
    const live = await t.createTenant({ environment: 'live' });
    const [sandboxEmail, liveEmail] = [uniqueEmail(), uniqueEmail()];
    await exclude(t, sandbox, { user_id: userId(), duration: 'duration_permanent', email: sandboxEmail });
    await regulator(t, [{ email: sandboxEmail, duration: 'duration_1y', environment: 'sandbox' }]);
    await regulator(t, [{ email: liveEmail, duration: 'duration_1y', environment: 'live' }]);
    expect((await check(t, live, { email: sandboxEmail })).json()).toEqual({ is_excluded: false });
    expect((await check(t, sandbox, { email: liveEmail })).json()).toEqual({ is_excluded: false });
    expect((await check(t, live, { email: liveEmail })).json()).toMatchObject({
      is_excluded: true,
      source: 'regulator_comprehensive',
    });
  });

  it('include_regulator=false is a diagnostic for sandbox admin keys only: 403 forbidden with a standard key', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const response = await check(t, tenant, { email: uniqueEmail(), include_regulator: false });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: 'forbidden',
      message: expect.any(String),
      request_id: expect.any(String),
    });
    const admin = await t.issueKey(tenant.tenantId, 'admin');
    expect(
      (await check(t, tenant, { email: uniqueEmail(), include_regulator: false }, admin)).statusCode,
    ).toBe(200);
  });

  it('refuses include_regulator=false to a live tenant whatever the role of its key, and still checks with it', async () => {
    const { t } = suite.current;
    const live = await t.createTenant({ environment: 'live' });
    const admin = await t.issueKey(live.tenantId, 'admin');
    const email = uniqueEmail();
    await regulator(t, [{ email, duration: 'duration_permanent', environment: 'live' }]);
    for (const key of [live.apiKey, admin]) {
      const response = await check(t, live, { email, include_regulator: false }, key);
      expect([response.statusCode, response.json()]).toEqual([
        403,
        { error: 'forbidden', message: expect.any(String), request_id: expect.any(String) },
      ]);
      // The same key, with the regulator's list included, is answered.
      expect((await check(t, live, { email }, key)).json()).toMatchObject({
        is_excluded: true,
        source: 'regulator_comprehensive',
      });
    }
  });

  it('skips every regulator_comprehensive row with include_regulator=false', async () => {
    const { t } = suite.current;
    const [a, b] = [await t.createTenant(), await t.createTenant()];
    const [adminA, adminB] = [await t.issueKey(a.tenantId, 'admin'), await t.issueKey(b.tenantId, 'admin')];
    const email = uniqueEmail();
    await regulator(t, [{ email, duration: 'duration_permanent', environment: 'sandbox' }]);
    const ownRow = (await exclude(t, a, { user_id: userId(), duration: 'duration_24h', email })).json();
    expect((await check(t, a, { email })).json()).toMatchObject({
      is_permanent: true,
      source: 'regulator_comprehensive',
    });
    expect((await check(t, a, { email, include_regulator: false }, adminA)).json()).toMatchObject({
      exclusion_id: ownRow.exclusion_id,
      source: 'operator',
    });
    expect((await check(t, b, { email, include_regulator: false }, adminB)).json()).toEqual({
      is_excluded: false,
    });
    expect((await check(t, b, { email, include_regulator: true })).json().is_excluded).toBe(true);
  });

  it('stops matching exactly at expires_at, when the expiry job marks the row expired', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const email = uniqueEmail();
    const created = (await exclude(t, tenant, { user_id: userId(), duration: 'duration_24h', email })).json();
    await t.advance(86_399);
    expect((await check(t, tenant, { email })).json().is_excluded).toBe(true);
    await t.advance(1);
    expect(t.platform.clock.now().toISOString()).toBe(created.expires_at);
    expect((await check(t, tenant, { email })).json()).toEqual({ is_excluded: false });
    const row = await t.db
      .selectFrom('exclusions')
      .selectAll()
      .where('exclusion_id', '=', created.exclusion_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'expired', expired_at: new Date(created.expires_at) });
    const events = await t.db
      .selectFrom('events')
      .select(['payload'])
      .where('tenant_id', '=', tenant.tenantId)
      .where('event', '=', 'exclusion.expired')
      .execute();
    expect(events.map((e) => JSON.parse(e.payload).data.exclusion_id)).toContain(created.exclusion_id);
  });

  it('does not rely on the expiry job: a lapsed row stops matching and its key is free again at once', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const [email, user] = [uniqueEmail(), userId()];
    const first = (await exclude(t, tenant, { user_id: user, duration: 'duration_24h', email })).json();
    // Move the clock without running due work, as when the workers are behind.
    await t.platform.testClock!.advance(t.db, 86_400);
    expect((await check(t, tenant, { email })).json()).toEqual({ is_excluded: false });
    const second = await exclude(t, tenant, { user_id: user, duration: 'duration_24h', email });
    expect(second.statusCode).toBe(201);
    expect(second.json().exclusion_id).not.toBe(first.exclusion_id);
    const statuses = await t.db
      .selectFrom('exclusions')
      .select(['exclusion_id', 'status'])
      .where('user_id', '=', user)
      .orderBy('exclusion_id')
      .execute();
    expect(statuses).toEqual([
      { exclusion_id: first.exclusion_id, status: 'expired' },
      { exclusion_id: second.json().exclusion_id, status: 'active' },
    ]);
    const expired = await t.db
      .selectFrom('events')
      .select('event_id')
      .where('tenant_id', '=', tenant.tenantId)
      .where('event', '=', 'exclusion.expired')
      .execute();
    expect(expired).toHaveLength(1);
    expect(
      await t.db
        .selectFrom('scheduled_jobs')
        .select('job_id')
        .where('subject_id', '=', first.exclusion_id)
        .execute(),
    ).toEqual([]);
    expect((await check(t, tenant, { email })).json()).toMatchObject({
      exclusion_id: second.json().exclusion_id,
    });
  });

  it('answers checks sent at once, by several tenants and for several contacts, each exactly as if sent alone', async () => {
    const { t } = suite.current;
    const [a, b] = [await t.createTenant(), await t.createTenant()];
    const adminA = await t.issueKey(a.tenantId, 'admin');
    const [ownEmail, theirPhone, nationalEmail] = [uniqueEmail(), uniquePhone(), uniqueEmail()];
    await exclude(t, a, { user_id: userId(), duration: 'duration_30d', email: ownEmail });
    await exclude(t, b, { user_id: userId(), duration: 'duration_1y', phone: theirPhone });
    await regulator(t, [{ email: nationalEmail, duration: 'duration_permanent', environment: 'sandbox' }]);
    const asks: Array<[typeof a, Parameters<typeof check>[2], string | undefined]> = [];
    for (let i = 0; i < 6; i++) {
      asks.push([a, { email: ownEmail }, undefined]);
      asks.push([b, { email: ownEmail, phone: uniquePhone() }, undefined]);
      asks.push([a, { phone: theirPhone }, undefined]);
      asks.push([a, { email: uniqueEmail(), phone: theirPhone }, adminA]);
      asks.push([a, { email: nationalEmail, include_regulator: false }, adminA]);
      asks.push([b, { email: nationalEmail }, undefined]);
      asks.push([b, { email: uniqueEmail() }, undefined]);
    }
    const alone = [];
    for (const [tenant, query, key] of asks) alone.push((await check(t, tenant, query, key)).json());
    const together = await Promise.all(asks.map(([tenant, query, key]) => check(t, tenant, query, key)));
    expect(together.map((response) => response.json())).toEqual(alone);
    // The answers differ from one another: each check was answered for its own contact and tenant.
    expect(alone.slice(0, 7).map((answer) => answer.source ?? answer.is_excluded)).toEqual([
      'operator',
      'regulator_comprehensive',
      'regulator_comprehensive',
      'regulator_comprehensive',
      false,
      'regulator_comprehensive',
      false,
    ]);
  });

  it('looks up by one query on the email and phone indexes, not a scan of the register', async () => {
    const { t } = suite.current;
    const plan = await t.db
      .transaction()
      .execute(async (tx) => {
        // A register of realistic size, with statistics, inside a transaction that is rolled back.
        await sql`insert into exclusions (exclusion_id, environment, origin, channel, email, phone, duration,
            is_permanent, effective_from, regulator_propagated, status, request_hash)
          select 'exc_' || lpad(to_hex(n), 32, '0'), 'sandbox', 'regulator', 'regulator', 'bulk' || n || '@example.com',
            '+1415' || lpad(n::text, 7, '0'), 'duration_permanent', true, now(), true, 'active', 'bulk' || n
          from generate_series(1, 20000) as n`.execute(tx);
        await sql`analyze exclusions`.execute(tx);
        const params = {
          tenantId: 'ten_x',
          environment: 'sandbox' as const,
          email: 'bulk77@example.com',
          phone: '+14150000078',
          includeRegulator: true,
          now: t.platform.clock.now(),
        };
        const query = bindChecks([params]);
        const plan = await tx.executeQuery(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
        throw new Rollback(JSON.stringify(plan.rows));
      })
      .catch((error: unknown) => (error instanceof Rollback ? error.message : Promise.reject(error)));
    expect(plan).toMatch(/exclusions_email/);
    expect(plan).toMatch(/exclusions_phone/);
    expect(plan).not.toMatch(/Seq Scan|exclusions_walk/);
  });
});

class Rollback extends Error {}
