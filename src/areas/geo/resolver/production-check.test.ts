import { beforeEach, describe, expect, it } from 'vitest';
import { useSuite } from '../../../../test/helpers/suite.js';
import { geoCacheFor } from '../geo.cache.js';
import { GeoDriver } from '../geo.test-support.js';
import { openProductionGeoResolver } from './production.js';

// A live tenant cut over to the production resolver, on the shipped DB-IP Lite data, through HTTP.
describe('geo check with the production resolver', () => {
  const suite = useSuite(async (own) => {
    const d = own(await GeoDriver.start());
    const { platform } = d.t;
    platform.vendors.geo.production = own(
      await openProductionGeoResolver({ log: platform.log, watchIntervalMs: 0 }),
    );
    return d;
  });
  // A live tenant of its own per test, cut over for geo.
  let live: GeoDriver;
  beforeEach(async () => {
    live = await suite.current.otherTenant({ environment: 'live' });
    await live.cutOver();
  });

  /** Redis outlives test runs: each check starts from an empty production cache entry, so it really resolves. */
  const check = async (ip_address: string) => {
    await geoCacheFor(suite.current.t.platform).forget('production', ip_address);
    return live.check(ip_address);
  };

  it('a University of Toronto address is restricted as Ontario (CA-ON), not as the rest of Canada', async () => {
    const response = await check('128.100.0.1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-cache']).toBe('MISS');
    expect(response.json()).toMatchObject({
      status: 'status_restricted',
      country_code: 'CA',
      country_name: 'Ontario, Canada',
      next_action: 'queue_for_review',
    });
  });

  it('81.2.69.142 is restricted in GB and 8.8.8.8 is blocked in the US', async () => {
    expect((await check('81.2.69.142')).json()).toMatchObject({
      status: 'status_restricted',
      country_code: 'GB',
    });
    expect((await check('8.8.8.8')).json()).toMatchObject({ status: 'status_blocked', country_code: 'US' });
  });

  it('a Canadian address outside Ontario is allowed, with its region', async () => {
    expect((await check('2620:10a:80bb::10')).json()).toMatchObject({
      status: 'status_allowed',
      country_code: 'CA',
      region: 'CA-QC',
    });
  });

  it.each(['10.0.0.1', '192.168.1.20', '203.0.113.10', 'fe80::1'])(
    'the private or documentation address %s is unresolvable_ip',
    async (ip) => {
      const response = await check(ip);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error: 'unresolvable_ip', status: 'status_blocked' });
    },
  );
});
