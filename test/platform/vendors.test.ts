import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { sandboxMatcher, type SanctionsMatcher } from '../../src/areas/sanctions/sanctions.matcher.js';
import type { Tenant } from '../../src/platform/db/platform-tables.js';
import { AppError } from '../../src/platform/errors.js';
import { selectVendor } from '../../src/platform/vendors.js';
import { TestService } from '../helpers/test-service.js';

describe('vendor selection and production cutover', () => {
  const suite = useSuite(() => TestService.start());

  const load = (tenantId: string): Promise<Tenant> =>
    suite.current.db
      .selectFrom('tenants')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();
  const implementations = { sandbox: 'stub', production: 'real' };

  it('gives sandbox tenants the stub, always', async () => {
    const t = suite.current;
    const sandbox = await t.createTenant();
    expect(selectVendor(await load(sandbox.tenantId), 'kyc', implementations)).toBe('stub');
    const refused = await t.backoffice('PUT', `/tenants/${sandbox.tenantId}/cutover`, { areas: ['kyc'] });
    expect(refused.statusCode).toBe(400);
  });

  it('gives a live tenant 403 cutover_required until staff cut the area over', async () => {
    const t = suite.current;
    const live = await t.createTenant({ environment: 'live' });
    let error: unknown;
    try {
      selectVendor(await load(live.tenantId), 'geo', implementations);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 403, code: 'cutover_required' });

    const cutover = await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['geo', 'kyc'] });
    expect(cutover.json().cutover_areas).toEqual(['geo', 'kyc']);
    const tenant = await load(live.tenantId);
    expect(selectVendor(tenant, 'geo', implementations)).toBe('real');
    expect(() => selectVendor(tenant, 'sanctions', implementations)).toThrow(AppError);
    // An area whose production vendor this deployment lacks is refused, never a pretend answer, and not as a
    // 503: no retry can succeed until the deployment is configured.
    expect(() => selectVendor(tenant, 'kyc', { sandbox: 'stub' })).toThrow(
      expect.objectContaining({ statusCode: 409, code: 'vendor_not_configured' }),
    );
  });

  it("holds each service's own vendors: a production matcher given to one service serves no other", async () => {
    const t = suite.current;
    const production: SanctionsMatcher = { ...sandboxMatcher, kind: 'production' };
    const other = suite.own(await TestService.start({ vendors: { sanctions: { production } } }));
    const answers = [];
    for (const service of [t, other]) {
      const live = await service.createTenant({ environment: 'live' });
      await service.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['sanctions'] });
      const screen = await service.api(live.apiKey, 'POST', '/v1/sanctions/screen', {
        user_id: 'user-1',
        first_name: 'Ada',
        last_name: 'Lovelace',
        date_of_birth: '1990-12-10',
        nationality: 'GB',
        email: 'ada@example.com',
      });
      answers.push(screen.statusCode);
    }
    expect(answers).toEqual([409, 201]);
    expect(t.platform.vendors.geo.database).not.toBe(other.platform.vendors.geo.database);
  });
});
