import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '../../src/platform/db/platform-tables.js';
import { AppError } from '../../src/platform/errors.js';
import { selectVendor } from '../../src/platform/vendors.js';
import { TestService } from '../helpers/test-service.js';

describe('vendor selection and production cutover', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  const load = (tenantId: string): Promise<Tenant> =>
    t.db.selectFrom('tenants').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  const implementations = { sandbox: 'stub', production: 'real' };

  it('gives sandbox tenants the stub, always', async () => {
    const sandbox = await t.createTenant();
    expect(selectVendor(await load(sandbox.tenantId), 'kyc', implementations)).toBe('stub');
    const refused = await t.backoffice('PUT', `/tenants/${sandbox.tenantId}/cutover`, { areas: ['kyc'] });
    expect(refused.statusCode).toBe(400);
  });

  it('gives a live tenant 403 cutover_required until staff cut the area over', async () => {
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
});
