import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { exclude, uniqueEmail, userId } from './exclusions.test-support.js';

/** What every exclusion route shares: authentication, the exclusions rate-limit bucket, the OpenAPI document. */
describe('self-exclusion routes', () => {
  const suite = useSuite(() => TenantDriver.start());

  it('answers the retired single-step embed with 410 endpoint_retired', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const response = await t.api(tenant.apiKey, 'POST', '/v1/exclusions/embed', { email: 'a@b.com' });
    expect(response.statusCode).toBe(410);
    expect(response.json()).toEqual({
      error: 'endpoint_retired',
      message: expect.any(String),
      request_id: expect.any(String),
    });
  });

  it('requires a bearer key on every exclusion route', async () => {
    const { t } = suite.current;
    for (const [method, url] of [
      ['POST', '/v1/exclusions'],
      ['GET', '/v1/exclusions/check?email=a@b.com'],
      ['GET', '/v1/exclusions/snapshot'],
      ['POST', '/v1/exclusions/embed'],
    ] as const) {
      const response = await t.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect([url, response.statusCode, response.json().error]).toEqual([url, 401, 'missing_credentials']);
    }
  });

  it('draws on the exclusions rate-limit bucket, not the default one', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    await t.backoffice('PUT', `/tenants/${tenant.tenantId}/rate-limits`, {
      exclusions_per_minute: 2,
      default_per_minute: 3,
    });
    const query = `/v1/exclusions/check?email=${encodeURIComponent(uniqueEmail())}`;
    expect((await t.api(tenant.apiKey, 'GET', query)).statusCode).toBe(200);
    expect((await t.api(tenant.apiKey, 'GET', '/v1/exclusions/snapshot?limit=1')).statusCode).toBe(200);
    // Every exclusion route is now over its budget of 2 ...
    for (const response of [
      await exclude(t, tenant, { user_id: userId(), duration: 'duration_24h', email: uniqueEmail() }),
      await t.api(tenant.apiKey, 'GET', query),
      await t.api(tenant.apiKey, 'GET', '/v1/exclusions/snapshot'),
      await t.api(tenant.apiKey, 'POST', '/v1/exclusions/embed', {}),
    ]) {
      expect([response.statusCode, response.json().error]).toEqual([429, 'rate_limited']);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    // ... while the default bucket (3) is untouched by them.
    for (let i = 0; i < 3; i++) {
      expect((await t.api(tenant.apiKey, 'GET', '/v1/limits?user_id=someone')).statusCode).toBe(200);
    }
    expect((await t.api(tenant.apiKey, 'GET', '/v1/limits?user_id=someone')).statusCode).toBe(429);
  });

  it('documents every exclusion route in the OpenAPI document under the exclusions tag', async () => {
    const { t } = suite.current;
    const doc = (await t.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    expect(doc.paths['/v1/exclusions']!.post!.tags).toEqual(['exclusions']);
    expect(doc.paths['/v1/exclusions/check']!.get!.tags).toEqual(['exclusions']);
    expect(doc.paths['/v1/exclusions/snapshot']!.get!.tags).toEqual(['exclusions']);
    expect(Object.keys(doc.paths).some((p) => p.includes('regulator'))).toBe(false);
  });
});
