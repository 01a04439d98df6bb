import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestTenant } from '../../../test/helpers/test-service.js';
import {
  awaitSightings,
  check,
  exclude,
  regulator,
  show,
  sightingsOf,
  tenantWithHook,
  told,
  uniqueEmail,
  uniquePhone,
  userId,
} from './exclusions.test-support.js';

interface SnapshotRow {
  exclusion_id: string;
  email: string | null;
  phone: string | null;
  user_id: string | null;
  source: string;
}

/**
 * The register shows each tenant only what it needs: another operator's or the regulator's row reaches a tenant's
 * webhooks and snapshot only once the tenant has shown the service that row's email or phone, and then with only
 * the contacts it has shown. The live check answers for any contact asked about.
 */
describe('what a tenant learns of other operators’ and the regulator’s rows', () => {
  const suite = useSuite(() => TenantDriver.start());

  const snapshot = async (tenant: TestTenant): Promise<SnapshotRow[]> => {
    const { t } = suite.current;
    const response = await t.api(tenant.apiKey, 'GET', '/v1/exclusions/snapshot?limit=1000');
    expect(response.statusCode).toBe(200);
    return response.json<{ exclusions: SnapshotRow[] }>().exclusions;
  };

  it('tells a tenant that has shown nothing nothing, yet its live check matches; once it has checked the contact it hears of the row and sees it', async () => {
    const { t } = suite.current;
    const { tenant: a, hook: hookA } = await tenantWithHook(suite);
    const { tenant: b, hook: hookB } = await tenantWithHook(suite);
    const [email, phone, user] = [uniqueEmail(), uniquePhone(), userId()];
    const created = (await exclude(t, a, { user_id: user, duration: 'duration_24h', email, phone })).json();
    await t.deliverWebhooks();

    expect(told(hookA, a, 'exclusion.created')).toHaveLength(1);
    expect(hookB.received).toEqual([]);
    expect(await snapshot(b)).toEqual([]);
    expect(await sightingsOf(t, b.tenantId)).toBe(0);

    // Knowing the contact is the licence to learn its status.
    const answer = await check(t, b, { email: email.toUpperCase() });
    expect([answer.statusCode, answer.json()]).toEqual([
      200,
      {
        is_excluded: true,
        exclusion_id: created.exclusion_id,
        duration: 'duration_24h',
        expires_at: created.expires_at,
        is_permanent: false,
        source: 'regulator_comprehensive',
      },
    ]);
    // The check answers without waiting for its contact to be recorded; it is recorded within a second.
    await awaitSightings(t, b.tenantId, 1);

    // From then on b sees the row, with the email it showed and not the phone it did not ...
    expect(await snapshot(b)).toEqual([
      {
        exclusion_id: created.exclusion_id,
        user_id: null,
        email: email.toLowerCase(),
        phone: null,
        duration: 'duration_24h',
        effective_from: created.effective_from,
        expires_at: created.expires_at,
        is_permanent: false,
        regulator_propagated: false,
        source: 'regulator_comprehensive',
      },
    ]);
    // ... and hears of its later events, though not again of its creation, which came before.
    await t.advance(86_400);
    await t.deliverWebhooks();
    expect(told(hookB, b, 'exclusion.expired')).toEqual([
      {
        exclusion_id: created.exclusion_id,
        user_id: null,
        duration: 'duration_24h',
        expires_at: created.expires_at,
        source: 'regulator_comprehensive',
      },
    ]);
    expect(hookB.received).toHaveLength(1);
    expect(told(hookA, a, 'exclusion.expired')).toEqual([
      {
        exclusion_id: created.exclusion_id,
        user_id: user,
        duration: 'duration_24h',
        expires_at: created.expires_at,
        source: 'operator',
      },
    ]);
  });

  it("tells each tenant of another operator's row with only the contacts it has shown", async () => {
    const { t } = suite.current;
    const { tenant: a } = await tenantWithHook(suite);
    const { tenant: byEmail, hook: hookEmail } = await tenantWithHook(suite);
    const { tenant: byPhone, hook: hookPhone } = await tenantWithHook(suite);
    const { tenant: byBoth, hook: hookBoth } = await tenantWithHook(suite);
    const { tenant: quiet, hook: hookQuiet } = await tenantWithHook(suite);
    const [email, phone] = [uniqueEmail(), uniquePhone()];
    await show(t, byEmail, [{ email: ` ${email.toUpperCase()} ` }]);
    await show(t, byPhone, [{ phone: `${phone.slice(0, 2)} ${phone.slice(2, 5)} ${phone.slice(5)}` }]);
    await show(t, byBoth, [{ email }, { phone }]);
    const created = (
      await exclude(t, a, { user_id: 'user-of-a', duration: 'duration_permanent', email, phone })
    ).json();
    await t.deliverWebhooks();

    const data = (user_email: string | null, user_phone: string | null) => ({
      exclusion_id: created.exclusion_id,
      user_email,
      user_phone,
      duration: 'duration_permanent',
      is_permanent: true,
      expires_at: null,
      source: 'regulator_comprehensive',
    });
    expect(told(hookEmail, byEmail, 'exclusion.permanent')).toEqual([data(email.toLowerCase(), null)]);
    expect(told(hookPhone, byPhone, 'exclusion.permanent')).toEqual([data(null, phone)]);
    expect(told(hookBoth, byBoth, 'exclusion.permanent')).toEqual([data(email.toLowerCase(), phone)]);
    expect(hookQuiet.received).toEqual([]);

    const row = (shownEmail: string | null, shownPhone: string | null) => [
      {
        exclusion_id: created.exclusion_id,
        user_id: null,
        email: shownEmail,
        phone: shownPhone,
        duration: 'duration_permanent',
        effective_from: created.effective_from,
        expires_at: null,
        is_permanent: true,
        regulator_propagated: false,
        source: 'regulator_comprehensive',
      },
    ];
    expect(await snapshot(byEmail)).toEqual(row(email.toLowerCase(), null));
    expect(await snapshot(byPhone)).toEqual(row(null, phone));
    expect(await snapshot(byBoth)).toEqual(row(email.toLowerCase(), phone));
    expect(await snapshot(quiet)).toEqual([]);
    for (const tenant of [byEmail, byPhone, byBoth, quiet]) {
      expect(JSON.stringify(await snapshot(tenant))).not.toContain('user-of-a');
    }
  });

  it("tells each tenant of a regulator row with only the contacts it has shown, a live check's included", async () => {
    const { t } = suite.current;
    const { tenant: byEmail, hook: hookEmail } = await tenantWithHook(suite);
    const { tenant: byPhone, hook: hookPhone } = await tenantWithHook(suite);
    const { tenant: quiet, hook: hookQuiet } = await tenantWithHook(suite);
    const [email, phone] = [uniqueEmail(), uniquePhone()];
    await show(t, byEmail, [{ email }]);
    // Shown by a live check, which records its contact after it answers.
    expect((await check(t, byPhone, { phone })).json()).toEqual({ is_excluded: false });
    await awaitSightings(t, byPhone.tenantId, 1);
    const master = (
      await regulator(t, [{ email, phone, duration: 'duration_7d', environment: 'sandbox' }])
    ).json().exclusions[0].exclusion_id;
    const expiresAt = new Date(t.platform.clock.now().getTime() + 7 * 86_400_000).toISOString();
    await t.deliverWebhooks();

    const data = (user_email: string | null, user_phone: string | null) => ({
      exclusion_id: master,
      user_email,
      user_phone,
      duration: 'duration_7d',
      is_permanent: false,
      expires_at: expiresAt,
      source: 'regulator_comprehensive',
    });
    expect(told(hookEmail, byEmail, 'exclusion.regulator_synced')).toEqual([data(email.toLowerCase(), null)]);
    expect(told(hookPhone, byPhone, 'exclusion.regulator_synced')).toEqual([data(null, phone)]);
    expect(hookQuiet.received).toEqual([]);

    expect(await snapshot(byEmail)).toMatchObject([
      { exclusion_id: master, email: email.toLowerCase(), phone: null },
    ]);
    expect(await snapshot(byPhone)).toMatchObject([{ exclusion_id: master, email: null, phone }]);
    expect(await snapshot(quiet)).toEqual([]);
    // The quiet tenant still learns the status of a contact it asks about.
    expect((await check(t, quiet, { phone })).json()).toMatchObject({
      is_excluded: true,
      exclusion_id: master,
      source: 'regulator_comprehensive',
    });
  });

  it('counts a contact registered in an exclusion of its own as shown', async () => {
    const { t } = suite.current;
    const { tenant: a } = await tenantWithHook(suite);
    const { tenant: b, hook: hookB } = await tenantWithHook(suite);
    const email = uniqueEmail();
    const own = (await exclude(t, b, { user_id: 'b-player', duration: 'duration_7d', email })).json();
    const theirs = (await exclude(t, a, { user_id: 'a-player', duration: 'duration_30d', email })).json();
    await t.deliverWebhooks();
    const events = told(hookB, b, 'exclusion.created');
    expect(events.map((data) => [data.exclusion_id, data.source, data.user_email]).sort()).toEqual(
      [
        [own.exclusion_id, 'operator', email.toLowerCase()],
        [theirs.exclusion_id, 'regulator_comprehensive', email.toLowerCase()],
      ].sort(),
    );
  });

  it('remembers a shown contact only as a keyed hash, never in plain text', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const [email, phone] = [uniqueEmail(), uniquePhone()];
    await show(t, tenant, [{ email, phone }]);
    const rows = await t.db
      .selectFrom('contact_sightings')
      .selectAll()
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(email.toLowerCase());
    expect(stored).not.toContain(email.toLowerCase().split('@')[0]);
    expect(stored).not.toContain(phone.slice(1));
    // Keyed: not a plain digest anyone could compute from a list of emails and phones.
    const plain = [email.toLowerCase(), `email:${email.toLowerCase()}`, phone, `phone:${phone}`].map((text) =>
      createHash('sha256').update(text).digest('hex'),
    );
    for (const row of rows) {
      // 128 bits of HMAC-SHA-256, in hex; no plain digest of the contact, whole or cut to the same width.
      expect(row.contact_hash).toMatch(/^[0-9a-f]{32}$/);
      expect(plain).not.toContain(row.contact_hash);
      expect(plain.map((digest) => digest.slice(0, 32))).not.toContain(row.contact_hash);
    }
  });

  it('entitles only the tenant that showed a contact, not another tenant of the environment', async () => {
    const { t } = suite.current;
    const { tenant: a } = await tenantWithHook(suite);
    const { tenant: shower } = await tenantWithHook(suite);
    const { tenant: other, hook: hookOther } = await tenantWithHook(suite);
    const email = uniqueEmail();
    await show(t, shower, [{ email }]);
    await exclude(t, a, { user_id: userId(), duration: 'duration_30d', email });
    await t.deliverWebhooks();
    expect(hookOther.received).toEqual([]);
    expect(await snapshot(other)).toEqual([]);
    expect(await snapshot(shower)).toHaveLength(1);
  });
});
