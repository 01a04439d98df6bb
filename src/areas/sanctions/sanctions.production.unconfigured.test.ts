import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';

describe('production sanctions without SANCTIONS_DATA_DIR', () => {
  const suite = useSuite(() => TenantDriver.start({ config: { sanctionsDataDir: undefined } }));

  // A deployment without lists cannot screen on any retry: 409 vendor_not_configured, never 503 "retry with backoff".
  it('a cut-over live tenant gets 409 vendor_not_configured; the lists view says why; reload is 409', async () => {
    const { t } = suite.current;
    const live = await t.createTenant({ environment: 'live' });
    await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['sanctions'] });
    const response = await t.api(live.apiKey, 'POST', '/v1/sanctions/screen', {
      user_id: 'player-1',
      first_name: 'Margaret',
      last_name: 'Thornbury',
      date_of_birth: '1988-07-19',
      nationality: 'GB',
      email: 'm@example.com',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      error: 'vendor_not_configured',
      message: expect.stringContaining('sanctions'),
    });
    const view = (await t.backoffice('GET', '/sanctions/lists')).json();
    expect(view).toMatchObject({ data_dir: null, available: false, lists: [] });
    expect(view.warnings[0]).toContain('SANCTIONS_DATA_DIR is not set');
    const reload = await t.backoffice('POST', '/sanctions/lists/reload');
    expect(reload.statusCode).toBe(409);
    expect(reload.json().error).toBe('vendor_not_configured');
  });
});
