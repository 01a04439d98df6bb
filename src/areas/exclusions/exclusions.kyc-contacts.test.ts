import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { exclude, tenantWithHook, uniqueEmail, uniquePhone, userId } from './exclusions.test-support.js';

// The KYC start carries the player's email and phone: sending them shows them to the register as a check does.
describe('contacts sent with a KYC start', () => {
  const suite = useSuite(() => TenantDriver.start());

  it("entitle the tenant to hear of another operator's exclusion of them, with only what it sent", async () => {
    const { t } = suite.current;
    const [registering, starting, silent] = [
      await tenantWithHook(suite),
      await tenantWithHook(suite),
      await tenantWithHook(suite),
    ];
    const [email, phone] = [uniqueEmail(), uniquePhone()];
    // The KYC start's phone is one the register cannot read (no country): the email alone is recorded.
    const started = await t.api(starting.tenant.apiKey, 'POST', '/v1/kyc/start', {
      user_id: 'kyc-player',
      email,
      phone: '020 7946 0958',
      withdrawal_amount_cents: 100,
      currency: 'USD',
    });
    expect(started.statusCode).toBe(200);

    const created = (
      await exclude(t, registering.tenant, { user_id: userId(), duration: 'duration_7d', email, phone })
    ).json();
    await t.deliverWebhooks();

    expect(starting.hook.verified(starting.tenant.signingSecret).map((e) => [e.event, e.data])).toEqual([
      [
        'exclusion.created',
        {
          exclusion_id: created.exclusion_id,
          user_email: email.toLowerCase(),
          user_phone: null,
          duration: 'duration_7d',
          is_permanent: false,
          expires_at: created.expires_at,
          source: 'regulator_comprehensive',
        },
      ],
    ]);
    expect(silent.hook.received).toEqual([]);
    const snapshot = (await t.api(starting.tenant.apiKey, 'GET', '/v1/exclusions/snapshot')).json();
    expect(snapshot.exclusions).toEqual([
      expect.objectContaining({
        exclusion_id: created.exclusion_id,
        email: email.toLowerCase(),
        phone: null,
      }),
    ]);
    expect((await t.api(silent.tenant.apiKey, 'GET', '/v1/exclusions/snapshot')).json().exclusions).toEqual(
      [],
    );
  });
});
