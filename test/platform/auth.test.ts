import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/platform/logger.js';
import { TenantDriver } from '../helpers/tenant-driver.js';
import { BACKOFFICE_TOKEN, TestService } from '../helpers/test-service.js';

// Any authenticated tenant route serves; the exclusion check is the cheapest.
const CHECK = '/v1/exclusions/check?email=player@example.com';

describe('authentication and the back office', () => {
  const suite = useSuite(() => TenantDriver.start());

  const securityLog = (requestId: string) =>
    suite.current.t.db
      .selectFrom('security_log')
      .selectAll()
      .where('request_id', '=', requestId)
      .executeTakeFirst();
  const auditFailure = (requestId: string) =>
    suite.current.t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('request_id', '=', requestId)
      .where('action', '=', 'auth.failed')
      .executeTakeFirst();

  it('accepts a valid key', async () => {
    const { t, tenant } = suite.current;
    const response = await t.api(tenant.apiKey, 'GET', CHECK);
    expect(response.statusCode).toBe(200);
  });

  it('answers 401 missing_credentials without an Authorization header, and logs it', async () => {
    const { t } = suite.current;
    const response = await t.inject({ method: 'GET', url: CHECK });
    expect(response.statusCode).toBe(401);
    const body = response.json();
    expect(body).toEqual({
      error: 'missing_credentials',
      message: expect.any(String),
      request_id: expect.stringMatching(/^req_/),
    });
    expect(await securityLog(body.request_id)).toMatchObject({ reason: 'missing_header', key_prefix: null });
  });

  it.each([
    ['a malformed key', 'Bearer not-a-key', 'malformed', 'bearer_token(len=9)'],
    ['a wrong scheme', `Basic ${'svc_sk_test_' + 'A'.repeat(32)}`, 'malformed', 'basic_credential(len=44)'],
    ['an unknown well-formed key', `Bearer svc_sk_test_${'Z'.repeat(32)}`, 'unknown_key', 'svc_sk_test_ZZZZ'],
  ])(
    'answers 401 invalid_credentials for %s and logs at most the environment prefix and 4 characters',
    async (_name, header, reason, logged) => {
      const { t } = suite.current;
      const response = await t.inject({ method: 'GET', url: CHECK, headers: { authorization: header } });
      expect(response.statusCode).toBe(401);
      const body = response.json();
      expect(body.error).toBe('invalid_credentials');
      const entry = await securityLog(body.request_id);
      expect(entry?.reason).toBe(reason);
      expect(entry?.key_prefix).toBe(logged);
    },
  );

  it('a revoked key stops working, and the failure lands in the tenant audit log', async () => {
    const { t, tenant } = suite.current;
    const key = await t.issueKey(tenant.tenantId, 'standard');
    expect((await t.api(key, 'GET', CHECK)).statusCode).toBe(200);
    const revoke = await t.backoffice('POST', `/keys/${key.slice(0, 20)}/revoke`);
    expect(revoke.statusCode).toBe(200);

    const response = await t.api(key, 'GET', CHECK);
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('invalid_credentials');
    const entry = await auditFailure(response.json().request_id);
    expect(entry).toMatchObject({
      tenant_id: tenant.tenantId,
      details: { reason: 'revoked', key_prefix: key.slice(0, 16) },
    });
    expect(JSON.stringify(entry)).not.toContain(key);
  });

  it('a suspended tenant is refused until reinstated', async () => {
    const { t } = suite.current;
    const other = await t.createTenant();
    expect((await t.backoffice('POST', `/tenants/${other.tenantId}/suspend`)).json().status).toBe(
      'suspended',
    );
    const refused = await t.api(other.apiKey, 'GET', CHECK);
    expect(refused.statusCode).toBe(401);
    expect((await auditFailure(refused.json().request_id))?.details).toMatchObject({
      reason: 'tenant_suspended',
    });
    await t.backoffice('POST', `/tenants/${other.tenantId}/reinstate`);
    expect((await t.api(other.apiKey, 'GET', CHECK)).statusCode).toBe(200);
  });

  it('live keys start svc_sk_live_, sandbox keys svc_sk_test_, both 12 + 32 URL-safe characters', async () => {
    const { t, tenant } = suite.current;
    const live = await t.createTenant({ environment: 'live' });
    expect(live.apiKey).toMatch(/^svc_sk_live_[A-Za-z0-9_-]{32}$/);
    expect(tenant.apiKey).toMatch(/^svc_sk_test_[A-Za-z0-9_-]{32}$/);
    expect(live.signingSecret).toMatch(/^whsec_/);
  });

  it('stores only the SHA-256 of each key: the plaintext is nowhere in the database', async () => {
    const { t, tenant } = suite.current;
    const stored = await t.db
      .selectFrom('api_keys')
      .select('key_hash')
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    expect(stored.map((k) => k.key_hash)).toContain(createHash('sha256').update(tenant.apiKey).digest('hex'));

    const columns = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'jsonb', 'json', 'character varying')`.execute(
      t.db,
    );
    const secret = tenant.apiKey.slice(12);
    for (const { table_name, column_name } of columns.rows) {
      const hits = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table_name)}
        where ${sql.ref(column_name)}::text like ${'%' + secret + '%'}`.execute(t.db);
      expect(hits.rows[0]!.n, `${table_name}.${column_name}`).toBe(0);
    }
  });

  it('the back office refuses tenant keys and missing tokens', async () => {
    const { t, tenant } = suite.current;
    const withTenantKey = await t.inject({
      method: 'GET',
      url: '/backoffice/v1/tenants',
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(withTenantKey.statusCode).toBe(401);
    expect(withTenantKey.json().error).toBe('invalid_credentials');
    const without = await t.inject({ method: 'GET', url: '/backoffice/v1/tenants' });
    expect(without.json().error).toBe('missing_credentials');
    const ok = await t.inject({
      method: 'GET',
      url: '/backoffice/v1/tenants',
      headers: { authorization: `Bearer ${BACKOFFICE_TOKEN}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).not.toContain('signing_secret');
  });

  it('answers 400 in the error shape for a malformed back-office body, changing nothing', async () => {
    const { t } = suite.current;
    const before = (await t.backoffice('GET', '/tenants')).json().tenants.length;
    const response = await t.inject({
      method: 'POST',
      url: '/backoffice/v1/tenants',
      headers: { authorization: `Bearer ${BACKOFFICE_TOKEN}`, 'content-type': 'application/json' },
      payload: '{"name": "x", ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_request',
      message: expect.any(String),
      request_id: expect.any(String),
    });
    const wrongEnv = await t.backoffice('POST', '/tenants', { name: 'x', environment: 'production' });
    expect(wrongEnv.statusCode).toBe(400);
    expect((await t.backoffice('GET', '/tenants')).json().tenants.length).toBe(before);
  });
});

describe('per-key rate limits', () => {
  const suite = useSuite(() => TestService.start());

  it('answers 429 rate_limited with Retry-After past the per-minute budget of the bucket', async () => {
    const t = suite.current;
    const tenant = await t.createTenant();
    const limits = await t.backoffice('PUT', `/tenants/${tenant.tenantId}/rate-limits`, {
      exclusions_per_minute: 3,
    });
    expect(limits.json().rate_limits).toEqual({ exclusions_per_minute: 3 });

    for (let i = 0; i < 3; i++) {
      const ok = await t.api(tenant.apiKey, 'GET', CHECK);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['ratelimit-limit']).toBe('3');
      expect(ok.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await t.api(tenant.apiKey, 'GET', CHECK);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: 'rate_limited',
      message: expect.any(String),
      request_id: expect.any(String),
    });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // The budget is per key: another key of the same tenant still has its own.
    const second = await t.issueKey(tenant.tenantId, 'standard');
    expect((await t.api(second, 'GET', CHECK)).statusCode).toBe(200);
  });

  it.skipIf(!process.env.REDIS_URL)('two app instances share one Redis budget', async () => {
    const t = suite.current;
    const tenant = await t.createTenant();
    await t.backoffice('PUT', `/tenants/${tenant.tenantId}/rate-limits`, { exclusions_per_minute: 4 });
    const redis = new Redis(process.env.REDIS_URL!);
    const logger = createLogger({ logLevel: 'silent' });
    const second = await buildApp({ platform: t.platform, logger, backofficeTokenHash: 'unused', redis });
    try {
      const headers = { authorization: `Bearer ${tenant.apiKey}` };
      const statuses: number[] = [];
      for (const app of [t.service.app, second, t.service.app, second, t.service.app, second]) {
        statuses.push((await app.inject({ method: 'GET', url: CHECK, headers })).statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await second.close();
      redis.disconnect();
    }
  });
});
