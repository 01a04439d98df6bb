import { afterEach, describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY } from '../../../test/helpers/units.js';
import { geoCacheFor } from './geo.cache.js';
import { GeoDriver } from './geo.test-support.js';
import { sandboxResolver, type GeoResolver } from './resolver/resolver.js';

describe('geo resolver cache', () => {
  const resolved: string[] = [];
  // Counts what reaches the resolver: a HIT must not, a MISS must.
  const counting: GeoResolver = {
    kind: 'sandbox',
    resolve: (ip) => {
      resolved.push(ip);
      return sandboxResolver.resolve(ip);
    },
  };

  // Two instances of the service, as two processes of one deployment would be, each with a tenant of its own.
  const suite = useSuite(async (own) => {
    const first = own(await GeoDriver.start({ config: { vendors: { geo: { sandbox: counting } } } }));
    const second = own(await GeoDriver.start({ config: { vendors: { geo: { sandbox: counting } } } }));
    return { first, second };
  });
  afterEach(() => {
    resolved.length = 0;
  });

  /** Redis outlives test runs: each test starts from a known empty entry. */
  const forget = (ip: string) => geoCacheFor(suite.current.first.t.platform).forget('sandbox', ip);
  /** Entries stamped in a clock's future count as stale: the reading instance must not be behind the writer. */
  const secondNotBehindFirst = async () => {
    const { first, second } = suite.current;
    const behindMs = first.t.platform.clock.now().getTime() - second.t.platform.clock.now().getTime();
    if (behindMs > 0) await second.t.advance(Math.ceil(behindMs / 1000));
  };
  const auditedCache = async (d: GeoDriver, ip: string) =>
    (
      await d.t.db
        .selectFrom('geo_audit_log')
        .select('cache')
        .where('ip_address', '=', ip)
        .orderBy('geo_audit_id')
        .execute()
    ).map((row) => row.cache);

  it('MISS asks the resolver, HIT does not, for 24 hours on the service clock', async () => {
    const { first } = suite.current;
    const ip = '39.32.5.201';
    await forget(ip);
    expect((await first.check(ip)).headers['x-cache']).toBe('MISS');
    expect((await first.check(ip)).headers['x-cache']).toBe('HIT');
    await first.t.advance(DAY - 1);
    expect((await first.check(ip)).headers['x-cache']).toBe('HIT');
    expect(resolved).toEqual([ip]);
    await first.t.advance(1);
    expect((await first.check(ip)).headers['x-cache']).toBe('MISS');
    expect(resolved).toEqual([ip, ip]);
    expect(await auditedCache(first, ip)).toEqual(['MISS', 'HIT', 'HIT', 'MISS']);
  });

  it('unresolvable addresses are never cached: each check goes to the resolver again', async () => {
    const { first } = suite.current;
    const ip = '10.9.9.9';
    await forget(ip);
    expect((await first.check(ip)).statusCode).toBe(422);
    expect((await first.check(ip)).statusCode).toBe(422);
    expect(resolved).toEqual([ip, ip]);
    expect(await auditedCache(first, ip)).toEqual(['MISS', 'MISS']);
  });

  it.runIf(process.env.REDIS_URL)(
    'with REDIS_URL the cache is shared: an address resolved by one instance is a HIT on another',
    async () => {
      const { first, second } = suite.current;
      const ip = '39.32.5.202';
      await forget(ip);
      await secondNotBehindFirst();
      expect((await first.check(ip)).headers['x-cache']).toBe('MISS');
      const other = await second.check(ip);
      expect(other.headers['x-cache']).toBe('HIT');
      expect(other.json()).toMatchObject({ status: 'status_allowed', country_code: 'PK' });
      expect(resolved).toEqual([ip]);
    },
  );

  it.skipIf(process.env.REDIS_URL)(
    'without REDIS_URL the cache is in process: another instance resolves for itself',
    async () => {
      const { first, second } = suite.current;
      const ip = '39.32.5.203';
      expect((await first.check(ip)).headers['x-cache']).toBe('MISS');
      expect((await second.check(ip)).headers['x-cache']).toBe('MISS');
      expect((await second.check(ip)).headers['x-cache']).toBe('HIT');
      expect(resolved).toEqual([ip, ip]);
    },
  );
});
