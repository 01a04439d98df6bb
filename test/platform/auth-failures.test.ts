import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/platform/logger.js';
import { TenantDriver } from '../helpers/tenant-driver.js';
import { BACKOFFICE_TOKEN, TestService } from '../helpers/test-service.js';

const CHECK = '/v1/exclusions/check?email=player@example.com';
const LIMIT = 5;

/** An address of this test's own: with REDIS_URL, every test file's failures from 127.0.0.1 count together. */
const freshAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('what the security log records of a failed credential', () => {
  const suite = useSuite(() => TestService.start());

  const logged = async (requestId: string) =>
    suite.current.db
      .selectFrom('security_log')
      .selectAll()
      .where('request_id', '=', requestId)
      .executeTakeFirstOrThrow();

  /** Not the credential, nor any 8 characters of it, anywhere in the row. */
  function expectNoCharactersOf(credential: string, row: object) {
    const text = JSON.stringify(row);
    for (let i = 0; i + 8 <= credential.length; i++) expect(text).not.toContain(credential.slice(i, i + 8));
  }

  it('a Basic credential leaves only its kind and length', async () => {
    const t = suite.current;
    const credential = Buffer.from(`operator:${randomBytes(12).toString('base64url')}`).toString('base64');
    const response = await t.inject({
      method: 'GET',
      url: CHECK,
      headers: { authorization: `Basic ${credential}` },
    });
    expect(response.statusCode).toBe(401);
    const row = await logged(response.json().request_id);
    expect(row).toMatchObject({
      reason: 'malformed',
      key_prefix: `basic_credential(len=${credential.length})`,
    });
    expectNoCharactersOf(credential, row);
  });

  it('a back-office token sent to the tenant API leaves only its kind and length', async () => {
    const t = suite.current;
    const token = 'bo_' + randomBytes(32).toString('base64url');
    const response = await t.inject({
      method: 'GET',
      url: CHECK,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(401);
    const row = await logged(response.json().request_id);
    expect(row).toMatchObject({ reason: 'malformed', key_prefix: `bearer_token(len=${token.length})` });
    expectNoCharactersOf(token, row);
    expectNoCharactersOf(token.slice(3), row);
  });

  it('a wrong back-office token is recorded by its kind and length; a key of ours by its prefix and 4 characters', async () => {
    const t = suite.current;
    const token = 'bo_' + randomBytes(32).toString('base64url');
    const wrong = await t.inject({
      method: 'GET',
      url: '/backoffice/v1/tenants',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(wrong.statusCode).toBe(401);
    const row = await logged(wrong.json().request_id);
    expect(row).toMatchObject({
      reason: 'backoffice_invalid_token',
      key_prefix: `bearer_token(len=${token.length})`,
    });
    expectNoCharactersOf(token, row);

    const tenant = await t.createTenant();
    const withKey = await t.inject({
      method: 'GET',
      url: '/backoffice/v1/tenants',
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect((await logged(withKey.json().request_id)).key_prefix).toBe(tenant.apiKey.slice(0, 16));

    const missing = await t.inject({ method: 'GET', url: '/backoffice/v1/tenants' });
    expect(missing.json().error).toBe('missing_credentials');
    expect(await logged(missing.json().request_id)).toMatchObject({
      reason: 'backoffice_missing_token',
      key_prefix: null,
    });
  });

  it.each([
    ['random text', 'hello there, service', 'other_credential(len=14)'],
    ['a key of ours cut short', 'Bearer svc_sk_live_abc', 'svc_sk_live_a'],
    ['a bare key of ours without the scheme', `svc_sk_test_${'Q'.repeat(32)}`, 'svc_sk_test_QQQQ'],
  ])('%s is recorded as %s', async (_name, header, expected) => {
    const t = suite.current;
    const response = await t.inject({ method: 'GET', url: CHECK, headers: { authorization: header } });
    expect(response.statusCode).toBe(401);
    expect((await logged(response.json().request_id)).key_prefix).toBe(expected);
  });
});

describe('failed authentications are throttled per client address', () => {
  const suite = useSuite(() => TenantDriver.start({ config: { authFailuresPerMinute: LIMIT } }));

  const securityRows = async (address: string) =>
    (
      await suite.current.t.db
        .selectFrom('security_log')
        .select('security_log_id')
        .where('remote_ip', '=', address)
        .execute()
    ).length;
  const auditFailures = async () => {
    const { t, tenant } = suite.current;
    return (
      await t.db
        .selectFrom('audit_log')
        .select('audit_id')
        .where('tenant_id', '=', tenant.tenantId)
        .where('action', '=', 'auth.failed')
        .execute()
    ).length;
  };

  const tenantApi = (
    address: string,
    authorization?: string,
    app: FastifyInstance = suite.current.t.service.app,
  ) =>
    app.inject({
      method: 'GET',
      url: CHECK,
      remoteAddress: address,
      headers: authorization ? { authorization } : {},
    });
  const backoffice = (address: string, token: string, app: FastifyInstance = suite.current.t.service.app) =>
    app.inject({
      method: 'GET',
      url: '/backoffice/v1/tenants',
      remoteAddress: address,
      headers: { authorization: `Bearer ${token}` },
    });

  function expectRateLimited(response: Awaited<ReturnType<typeof tenantApi>>) {
    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({
      error: 'rate_limited',
      message: expect.any(String),
      request_id: expect.any(String),
    });
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  }

  it('answers 429 with Retry-After past the limit and writes nothing more; a valid key still passes', async () => {
    const { t, tenant } = suite.current;
    const address = freshAddress();
    const revoked = await t.issueKey(tenant.tenantId, 'standard');
    await t.backoffice('POST', `/keys/${revoked.slice(0, 20)}/revoke`);
    const auditBefore = await auditFailures();

    // Every kind of failure draws on the one budget: no header, a malformed header, an unknown and a revoked key.
    const failures = [
      undefined,
      'Bearer nonsense',
      `Bearer svc_sk_test_${'Z'.repeat(32)}`,
      `Bearer ${revoked}`,
      `Bearer ${revoked}`,
    ];
    for (const authorization of failures) {
      expect((await tenantApi(address, authorization)).statusCode).toBe(401);
    }
    expect(await securityRows(address)).toBe(3);
    expect(await auditFailures()).toBe(auditBefore + 2);

    for (const authorization of failures) expectRateLimited(await tenantApi(address, authorization));
    expect(await securityRows(address)).toBe(3);
    expect(await auditFailures()).toBe(auditBefore + 2);

    expect((await tenantApi(address, `Bearer ${tenant.apiKey}`)).statusCode).toBe(200);
    // Another address has its own budget.
    expect((await tenantApi(freshAddress(), 'Bearer nonsense')).statusCode).toBe(401);
  });

  it('throttles failed back-office logins the same way', async () => {
    const address = freshAddress();
    const wrong = 'bo_' + randomBytes(32).toString('base64url');
    for (let i = 0; i < LIMIT; i++) expect((await backoffice(address, wrong)).statusCode).toBe(401);
    expect(await securityRows(address)).toBe(LIMIT);
    expectRateLimited(await backoffice(address, wrong));
    expect(await securityRows(address)).toBe(LIMIT);
    expect((await backoffice(address, BACKOFFICE_TOKEN)).statusCode).toBe(200);
    // The tenant API's budget is separate from the back office's.
    expect((await tenantApi(address, 'Bearer nonsense')).statusCode).toBe(401);
  });

  it.skipIf(!process.env.REDIS_URL)('two app instances count one address in one Redis budget', async () => {
    const { t } = suite.current;
    const logger = createLogger({ logLevel: 'silent' });
    const second = await buildApp({
      platform: t.platform,
      logger,
      backofficeTokenHash: createHash('sha256').update(BACKOFFICE_TOKEN).digest('hex'),
      redis: t.platform.redis,
    });
    try {
      const apps = [t.service.app, second, t.service.app, second, t.service.app, second];
      const address = freshAddress();
      const statuses: number[] = [];
      for (const app of apps) statuses.push((await tenantApi(address, 'Bearer nonsense', app)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect(await securityRows(address)).toBe(LIMIT);

      const staff = freshAddress();
      const logins: number[] = [];
      for (const app of apps) logins.push((await backoffice(staff, 'not-the-token', app)).statusCode);
      expect(logins).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      await second.close();
    }
  });
});

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  const forwarded = (t: TestService, proxy: string, client: string) =>
    t.inject({
      method: 'GET',
      url: CHECK,
      remoteAddress: proxy,
      headers: { authorization: 'Bearer nonsense', 'x-forwarded-for': client },
    });
  const loggedAddress = async (t: TestService, requestId: string) =>
    (
      await t.db
        .selectFrom('security_log')
        .select('remote_ip')
        .where('request_id', '=', requestId)
        .executeTakeFirstOrThrow()
    ).remote_ip;

  it('a trusted proxy: each forwarded client has its own budget and is the address logged', async () => {
    const proxy = freshAddress();
    const t = await TestService.start({ authFailuresPerMinute: LIMIT, trustProxy: [proxy] });
    try {
      const first = freshAddress();
      const statuses: number[] = [];
      for (let i = 0; i <= LIMIT; i++) statuses.push((await forwarded(t, proxy, first)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const second = freshAddress();
      const other = await forwarded(t, proxy, second);
      expect(other.statusCode).toBe(401);
      expect(await loggedAddress(t, other.json().request_id)).toBe(second);
    } finally {
      await t.close();
    }
  });

  it('no trusted proxy: X-Forwarded-For is ignored, so a client cannot pick a fresh address per attempt', async () => {
    const t = await TestService.start({ authFailuresPerMinute: LIMIT });
    try {
      const client = freshAddress();
      const statuses: number[] = [];
      for (let i = 0; i <= LIMIT; i++) statuses.push((await forwarded(t, client, freshAddress())).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      const last = await forwarded(t, client, freshAddress());
      expect(last.statusCode).toBe(429);
      const logged = await forwarded(t, freshAddress(), '203.0.113.9');
      expect(await loggedAddress(t, logged.json().request_id)).not.toBe('203.0.113.9');
    } finally {
      await t.close();
    }
  });
});
