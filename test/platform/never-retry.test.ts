import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { TenantDriver } from '../helpers/tenant-driver.js';
import { expectRefused, storedRows } from './stored-rows.js';

/** A request that can never succeed is not answered 503 "retry with backoff" (issue 16). */
describe('requests no retry can help', () => {
  const suite = useSuite(async (own) => {
    // No SANCTIONS_DATA_DIR, and no production KYC vendor exists: the deployment cannot serve either area live.
    const d = own(await TenantDriver.start({ config: { sanctionsDataDir: undefined }, environment: 'live' }));
    const { t, tenant: live } = d;
    await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['sanctions', 'kyc'] });
    return { t, live, d };
  });
  let before: Record<string, number>;
  beforeEach(async () => {
    const { t } = suite.current;
    before = await storedRows(t.db);
  });

  it('a live tenant cut over to a vendor the deployment lacks gets 409 vendor_not_configured, and nothing is stored', async () => {
    const { t, live } = suite.current;
    const screen = await t.api(live.apiKey, 'POST', '/v1/sanctions/screen', {
      user_id: 'player-1',
      first_name: 'Margaret',
      last_name: 'Thornbury',
      date_of_birth: '1988-07-19',
      nationality: 'GB',
      email: 'm@example.com',
    });
    expect(expectRefused(screen, 409, 'vendor_not_configured').message).toContain('retrying will not help');
    const kyc = await t.api(live.apiKey, 'POST', '/v1/kyc/start', {
      user_id: 'player-1',
      email: 'm@example.com',
      phone: '+447700900123',
      withdrawal_amount_cents: 50_000_00,
      currency: 'USD',
    });
    expectRefused(kyc, 409, 'vendor_not_configured');
    expectRefused(await t.backoffice('POST', '/sanctions/lists/reload'), 409, 'vendor_not_configured');
    expect(await storedRows(t.db)).toEqual(before);
  });

  it('an AML event the database refuses for its values is a 500 to look into, not a 503 to retry', async () => {
    const { t, d } = suite.current;
    const { tenant: sandbox } = await d.otherTenant();
    before = await storedRows(t.db);
    // Stands for a value validation did not foresee: the same insert fails however often it is retried.
    await sql`alter table aml_events add constraint refuse_large check (amount_cents < 1000000)`.execute(
      t.db,
    );
    try {
      const response = await t.api(sandbox.apiKey, 'POST', '/v1/aml/event', {
        user_id: 'player-1',
        event_type: 'deposit',
        transaction_id: 'txn-refused',
        amount_cents: 5_000_000,
        currency: 'USD',
        occurred_at: t.platform.clock.now().toISOString(),
      });
      expectRefused(response, 500, 'internal_error');
    } finally {
      await sql`alter table aml_events drop constraint refuse_large`.execute(t.db);
    }
    expect(await storedRows(t.db)).toEqual(before);
  });
});
