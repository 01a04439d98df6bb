import { beforeEach, describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestTenant } from '../../../test/helpers/test-service.js';
import { geoCacheFor } from './geo.cache.js';

// The spec's sandbox table: address, expected status, expected country.
const SANDBOX_TABLE: [string, string, string][] = [
  ['203.0.113.10', 'status_allowed', 'CA'],
  ['200.160.5.10', 'status_allowed', 'BR'],
  ['198.51.100.10', 'status_allowed', 'JP'],
  ['39.32.5.10', 'status_allowed', 'PK'],
  ['81.2.69.142', 'status_restricted', 'GB'],
  ['1.1.1.10', 'status_restricted', 'AU'],
  ['78.193.5.10', 'status_restricted', 'FR'],
  ['46.114.5.10', 'status_restricted', 'DE'],
  ['83.46.5.10', 'status_restricted', 'ES'],
  ['93.41.5.10', 'status_restricted', 'IT'],
  ['193.190.5.10', 'status_restricted', 'NL'],
  ['155.4.5.10', 'status_restricted', 'SE'],
  ['8.8.8.8', 'status_blocked', 'US'],
  ['95.108.213.10', 'status_blocked', 'RU'],
  ['178.124.5.10', 'status_blocked', 'BY'],
  ['175.45.5.10', 'status_blocked', 'KP'],
  ['5.232.5.10', 'status_blocked', 'IR'],
  ['202.165.5.10', 'status_blocked', 'MM'],
];
/** The same /24 resolves alike: .77 stands for any neighbour. */
const neighbour = (ip: string) => ip.split('.').slice(0, 3).concat('77').join('.');

describe('geo check', () => {
  const suite = useSuite(() => TenantDriver.start());
  let tenant: TestTenant;
  beforeEach(async () => {
    const { t } = suite.current;
    tenant = await t.createTenant(); // fresh key per test: the sandbox rate limit is 100 per minute per key
  });

  const check = (ip_address: unknown, key = tenant.apiKey) =>
    suite.current.t.api(key, 'POST', '/v1/geo/check', {
      ip_address,
      user_agent: 'Mozilla/5.0 (test)',
      context: 'signup',
    });
  const now = () => suite.current.t.platform.clock.now().toISOString();
  /** Redis outlives test runs: a cache-sensitive test starts from a known empty entry. */
  const forget = (ip: string, kind: 'sandbox' | 'production' = 'sandbox') =>
    geoCacheFor(suite.current.t.platform).forget(kind, ip);

  it.each(
    SANDBOX_TABLE.flatMap(([ip, status, country]) => [
      [ip, status, country],
      [neighbour(ip), status, country],
    ]),
  )('%s is %s in %s', async (ip, status, country) => {
    const response = await check(ip);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status, country_code: country, checked_at: now() });
  });

  it('answers each tier with exactly its shape', async () => {
    expect((await check('203.0.113.10')).json()).toEqual({
      status: 'status_allowed',
      country_code: 'CA',
      country_name: 'Canada',
      region: 'CA-BC',
      ip_address: '203.0.113.10',
      checked_at: now(),
    });
    expect((await check('81.2.69.142')).json()).toEqual({
      status: 'status_restricted',
      country_code: 'GB',
      country_name: 'United Kingdom',
      checked_at: now(),
      restriction_reason: 'requires_local_license',
      user_message: expect.any(String),
      next_action: 'queue_for_review',
    });
    expect((await check('8.8.8.8')).json()).toEqual({
      status: 'status_blocked',
      country_code: 'US',
      country_name: 'United States',
      checked_at: now(),
      block_reason: 'country_blocked',
      user_message: expect.any(String),
    });
  });

  it.each(['10.1.2.3', '203.0.114.10', '2001:db8::1'])(
    'an address the stub cannot place (%s) is 422 unresolvable_ip with status_blocked',
    async (ip) => {
      const response = await check(ip);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        error: 'unresolvable_ip',
        message: expect.any(String),
        request_id: expect.stringMatching(/^req_/),
        status: 'status_blocked',
      });
    },
  );

  it('an IPv4-mapped IPv6 address is checked as the IPv4 address it carries', async () => {
    expect((await check('::ffff:8.8.8.8')).json()).toMatchObject({
      status: 'status_blocked',
      country_code: 'US',
    });
  });

  it.each([['999.1.1.1'], ['abc'], [''], ['1.2.3'], [123], [undefined]])(
    'rejects %j with 400 invalid_ip',
    async (ip) => {
      const response = await check(ip);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_ip');
    },
  );

  it('a tier change applies at once to a cached address', async () => {
    const { t } = suite.current;
    const ip = '200.160.5.202';
    await forget(ip);
    expect((await check(ip)).json().status).toBe('status_allowed');
    const moved = await t.backoffice('PUT', '/geo/countries/BR', {
      status: 'blocked',
      reason: 'regulatory_change',
    });
    expect(moved.statusCode).toBe(200);
    try {
      const cached = await check(ip);
      expect(cached.headers['x-cache']).toBe('HIT');
      expect(cached.json()).toMatchObject({
        status: 'status_blocked',
        country_code: 'BR',
        block_reason: 'country_blocked',
      });
    } finally {
      await t.backoffice('PUT', '/geo/countries/BR', { status: 'allowed', reason: 'correction' });
    }
    expect((await check(ip)).json().status).toBe('status_allowed');
  });

  it('a live tenant gets 403 cutover_required until geo is cut over, then the production resolver', async () => {
    const { t } = suite.current;
    const live = await t.createTenant({ environment: 'live' });
    const before = await check('8.8.8.8', live.apiKey);
    expect(before.statusCode).toBe(403);
    expect(before.json().error).toBe('cutover_required');
    await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['geo'] });
    const after = await check('8.8.8.8', live.apiKey);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ status: 'status_blocked', country_code: 'US' });
    // The list is not vendor-backed: every tenant reads it.
    expect((await t.api(live.apiKey, 'GET', '/v1/geo/countries')).statusCode).toBe(200);
  });

  it('the tier of a region (CA-ON) comes before its country, and the production cache is its own', async () => {
    const { t } = suite.current;
    const live = await t.createTenant({ environment: 'live' });
    await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['geo'] });
    const ip = '203.0.113.10';
    await forget(ip, 'production');
    t.platform.vendors.geo.production = {
      kind: 'production',
      resolve: async (address) => (address === ip ? { country_code: 'CA', region: 'CA-ON' } : null),
    };
    try {
      expect((await check(ip)).json()).toMatchObject({ status: 'status_allowed', region: 'CA-BC' });
      const ontario = await check(ip, live.apiKey);
      expect(ontario.headers['x-cache']).toBe('MISS'); // the sandbox's entry for this address is not shared
      expect(ontario.json()).toEqual({
        status: 'status_restricted',
        country_code: 'CA',
        country_name: 'Ontario, Canada',
        checked_at: now(),
        restriction_reason: 'requires_local_license',
        user_message: expect.any(String),
        next_action: 'queue_for_review',
      });
      expect((await check(ip, live.apiKey)).headers['x-cache']).toBe('HIT');
    } finally {
      delete t.platform.vendors.geo.production;
    }
  });
});
