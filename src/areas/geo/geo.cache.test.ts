import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestService, type TestTenant } from '../../../test/helpers/test-service.js';
import { geoCacheFor } from './geo.cache.js';
import { sandboxResolver, type GeoResolver } from './resolver/resolver.js';
import { DAY } from '../../../test/helpers/units.js';

describe('geo resolver cache', () => {
  let first: TestService;
  let second: TestService;
  let tenants: TestTenant[];
  const resolved: string[] = [];
  // Counts what reaches the resolver: a HIT must not, a MISS must.
  const counting: GeoResolver = {
    kind: 'sandbox',
    resolve: (ip) => {
      resolved.push(ip);
      return sandboxResolver.resolve(ip);
    },
  };

  beforeAll(async () => {
    // Two instances of the service, as two processes of one deployment would be.
    first = await TestService.start({ vendors: { geo: { sandbox: counting } } });
    second = await TestService.start({ vendors: { geo: { sandbox: counting } } });
    tenants = [await first.createTenant(), await second.createTenant()];
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });
  afterEach(() => {
    resolved.length = 0;
  });

  const check = (t: TestService, tenant: TestTenant, ip_address: string) =>
    t.api(tenant.apiKey, 'POST', '/v1/geo/check', { ip_address, user_agent: 'UA/1.0', context: 'signup' });
  /** Redis outlives test runs: each test starts from a known empty entry. */
  const forget = (ip: string) => geoCacheFor(first.platform).forget('sandbox', ip);
  /** Entries stamped in a clock's future count as stale: the reading instance must not be behind the writer. */
  const secondNotBehindFirst = async () => {
    const behindMs = first.platform.clock.now().getTime() - second.platform.clock.now().getTime();
    if (behindMs > 0) await second.advance(Math.ceil(behindMs / 1000));
  };
  const auditedCache = async (t: TestService, ip: string) =>
    (
      await t.db
        .selectFrom('geo_audit_log')
        .select('cache')
        .where('ip_address', '=', ip)
        .orderBy('geo_audit_id')
        .execute()
    ).map((row) => row.cache);

  it('MISS asks the resolver, HIT does not, for 24 hours on the service clock', async () => {
    const ip = '39.32.5.201';
    await forget(ip);
    expect((await check(first, tenants[0]!, ip)).headers['x-cache']).toBe('MISS');
    expect((await check(first, tenants[0]!, ip)).headers['x-cache']).toBe('HIT');
    await first.advance(DAY - 1);
    expect((await check(first, tenants[0]!, ip)).headers['x-cache']).toBe('HIT');
    expect(resolved).toEqual([ip]);
    await first.advance(1);
    expect((await check(first, tenants[0]!, ip)).headers['x-cache']).toBe('MISS');
    expect(resolved).toEqual([ip, ip]);
    expect(await auditedCache(first, ip)).toEqual(['MISS', 'HIT', 'HIT', 'MISS']);
  });

  it('unresolvable addresses are never cached: each check goes to the resolver again', async () => {
    const ip = '10.9.9.9';
    await forget(ip);
    expect((await check(first, tenants[0]!, ip)).statusCode).toBe(422);
    expect((await check(first, tenants[0]!, ip)).statusCode).toBe(422);
    expect(resolved).toEqual([ip, ip]);
    expect(await auditedCache(first, ip)).toEqual(['MISS', 'MISS']);
  });

  it.runIf(process.env.REDIS_URL)(
    'with REDIS_URL the cache is shared: an address resolved by one instance is a HIT on another',
    async () => {
      const ip = '39.32.5.202';
      await forget(ip);
      await secondNotBehindFirst();
      expect((await check(first, tenants[0]!, ip)).headers['x-cache']).toBe('MISS');
      const other = await check(second, tenants[1]!, ip);
      expect(other.headers['x-cache']).toBe('HIT');
      expect(other.json()).toMatchObject({ status: 'status_allowed', country_code: 'PK' });
      expect(resolved).toEqual([ip]);
    },
  );

  it.skipIf(process.env.REDIS_URL)(
    'without REDIS_URL the cache is in process: another instance resolves for itself',
    async () => {
      const ip = '39.32.5.203';
      expect((await check(first, tenants[0]!, ip)).headers['x-cache']).toBe('MISS');
      expect((await check(second, tenants[1]!, ip)).headers['x-cache']).toBe('MISS');
      expect((await check(second, tenants[1]!, ip)).headers['x-cache']).toBe('HIT');
      expect(resolved).toEqual([ip, ip]);
    },
  );
});
