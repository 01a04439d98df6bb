import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { geoCacheFor } from './geo.cache.js';

describe('geo audit log', () => {
  const suite = useSuite(async (own) => {
    const { t, tenant } = own(await TenantDriver.start());
    return { t, tenant, other: await t.createTenant() };
  });

  const check = (key: string, ip_address: string, extra: object = {}) =>
    suite.current.t.api(key, 'POST', '/v1/geo/check', {
      ip_address,
      user_agent: 'UA/1.0',
      context: 'signup',
      ...extra,
    });
  const rowsOf = (tenantId: string) =>
    suite.current.t.db
      .selectFrom('geo_audit_log')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .orderBy('geo_audit_id')
      .execute();

  it('appends one row per check: miss, hit and unresolvable alike, each in its own tenant', async () => {
    const { t, tenant, other } = suite.current;
    const ip = '155.4.5.150';
    await geoCacheFor(t.platform).forget('sandbox', ip);
    await check(tenant.apiKey, ip);
    await check(tenant.apiKey, ip, { user_agent: undefined, context: undefined });
    await check(tenant.apiKey, '192.0.2.1');
    await check(other.apiKey, '8.8.8.150');
    const at = t.platform.clock.now();

    const rows = await rowsOf(tenant.tenantId);
    const common = {
      tenant_id: tenant.tenantId,
      checked_at: at,
      resolver: 'sandbox',
      request_id: expect.stringMatching(/^req_/),
    };
    expect(rows).toEqual([
      {
        ...common,
        geo_audit_id: expect.any(Number),
        ip_address: ip,
        user_agent: 'UA/1.0',
        context: 'signup',
        country_code: 'SE',
        region: 'SE-AB',
        status: 'status_restricted',
        cache: 'MISS',
      },
      {
        ...common,
        geo_audit_id: expect.any(Number),
        ip_address: ip,
        user_agent: null,
        context: 'signup',
        country_code: 'SE',
        region: 'SE-AB',
        status: 'status_restricted',
        cache: 'HIT',
      },
      {
        ...common,
        geo_audit_id: expect.any(Number),
        ip_address: '192.0.2.1',
        user_agent: 'UA/1.0',
        context: 'signup',
        country_code: null,
        region: null,
        status: 'status_blocked',
        cache: 'MISS',
      },
    ]);
    const others = await rowsOf(other.tenantId);
    expect(others).toHaveLength(1);
    expect(others[0]).toMatchObject({
      ip_address: '8.8.8.150',
      country_code: 'US',
      status: 'status_blocked',
    });
  });

  it('does not audit a request that is not a check (invalid input)', async () => {
    const { other } = suite.current;
    const before = (await rowsOf(other.tenantId)).length;
    expect((await check(other.apiKey, 'not-an-ip')).statusCode).toBe(400);
    expect(await rowsOf(other.tenantId)).toHaveLength(before);
  });

  it('is kept by monthly partitions, each dropped whole 7 years after its month ends and not a second before', async () => {
    const { t } = suite.current;
    const retained = await t.createTenant();
    await check(retained.apiKey, '1.1.1.150'); // in the clock's month M
    const now = t.platform.clock.now();
    const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    await t.advance((monthEnd.getTime() - now.getTime()) / 1000 + 3600);
    await check(retained.apiKey, '1.1.1.151'); // in month M + 1

    // A second before month M is 7 years past, both rows are kept; then M's partition goes, with its row.
    const dropAt = new Date(monthEnd);
    dropAt.setUTCFullYear(dropAt.getUTCFullYear() + 7);
    await t.advance((dropAt.getTime() - t.platform.clock.now().getTime()) / 1000 - 1);
    expect((await rowsOf(retained.tenantId)).map((r) => r.ip_address)).toEqual(['1.1.1.150', '1.1.1.151']);
    await t.advance(1);
    expect((await rowsOf(retained.tenantId)).map((r) => r.ip_address)).toEqual(['1.1.1.151']);
  });
});
