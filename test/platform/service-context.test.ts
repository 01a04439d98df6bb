import { describe, expect, it } from 'vitest';
import { suspendTenant } from '../../src/backoffice/service/tenants.js';
import { setFxRateByStaff } from '../../src/platform/fx.js';
import { staffContext, withTransaction } from '../../src/platform/service-context.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

describe('service verbs given one context', () => {
  const suite = useSuite(() => TestService.start());

  const rateOf = (currency: string) =>
    suite.current.db
      .selectFrom('fx_rates')
      .select('usd_per_unit')
      .where('currency', '=', currency)
      .executeTakeFirst();
  const statusOf = (tenantId: string) =>
    suite.current.db
      .selectFrom('tenants')
      .select('status')
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();
  const auditOf = (requestId: string) =>
    suite.current.db
      .selectFrom('audit_log')
      .select(['tenant_id', 'actor', 'action'])
      .where('request_id', '=', requestId)
      .orderBy('audit_id')
      .execute();

  it('commit together inside an outer transaction: a failure after both leaves neither', async () => {
    const t = suite.current;
    const tenant = await t.createTenant();
    const rateBefore = await rateOf('ISK');

    const outer = staffContext(t.platform, 'req_together');
    await expect(
      withTransaction(outer, async (_tx, ctx) => {
        await setFxRateByStaff(ctx, { currency: 'ISK', usdPerUnit: 0.0071 });
        await suspendTenant(t.platform, ctx, tenant.tenantId);
        throw new Error('the caller fails after both verbs');
      }),
    ).rejects.toThrow('the caller fails after both verbs');

    expect(await rateOf('ISK')).toEqual(rateBefore);
    expect((await statusOf(tenant.tenantId)).status).toBe('active');
    expect(await auditOf('req_together')).toEqual([]);
  });

  it('commit each on its own without one: the first stands when the second fails', async () => {
    const t = suite.current;
    const staff = staffContext(t.platform, 'req_alone');

    await setFxRateByStaff(staff, { currency: 'ISK', usdPerUnit: 0.0072 });
    await expect(suspendTenant(t.platform, staff, 'tenant_unknown')).rejects.toMatchObject({
      code: 'tenant_not_found',
    });

    expect(await rateOf('ISK')).toEqual({ usd_per_unit: 0.0072 });
    expect(await auditOf('req_alone')).toEqual([
      { tenant_id: null, actor: 'backoffice', action: 'fx.rate_set' },
    ]);
  });
});
