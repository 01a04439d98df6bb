import { beforeEach, describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestTenant } from '../../../test/helpers/test-service.js';
import type { WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';
import {
  check,
  exclude,
  regulator,
  show,
  tenantWithHook,
  uniqueEmail,
  uniquePhone,
  userId,
} from './exclusions.test-support.js';

/**
 * An exclusion is announced to the tenant that registered it and to the tenants of its environment that have shown
 * its email or phone, each signed with its own secret. A tenant that has shown nothing hears nothing.
 */
describe('exclusion webhooks', () => {
  const suite = useSuite(() => TenantDriver.start());
  let a: TestTenant, b: TestTenant, quiet: TestTenant, live: TestTenant;
  let hookA: WebhookReceiver, hookB: WebhookReceiver, hookQuiet: WebhookReceiver, hookLive: WebhookReceiver;
  beforeEach(async () => {
    ({ hook: hookA, tenant: a } = await tenantWithHook(suite, 'sandbox'));
    ({ hook: hookB, tenant: b } = await tenantWithHook(suite, 'sandbox'));
    // A tenant of the same environment that never shows the service any contact.
    ({ hook: hookQuiet, tenant: quiet } = await tenantWithHook(suite, 'sandbox'));
    ({ hook: hookLive, tenant: live } = await tenantWithHook(suite, 'live'));
  });

  /** Every webhook a tenant received, each verified against its signing secret as the tenant's code would. */
  const verified = (hook: WebhookReceiver, tenant: TestTenant, event: string) =>
    hook.verified(tenant.signingSecret).filter((e) => e.event === event);

  it('announces a timed exclusion with exclusion.created to its own tenant and to the tenants that showed its contacts', async () => {
    const { t } = suite.current;
    const [email, phone] = [uniqueEmail(), uniquePhone()];
    await show(t, b, [{ email, phone }]);
    // A live tenant that knows the contacts still never hears of a sandbox row.
    await show(t, live, [{ email, phone }]);
    const created = (
      await exclude(t, a, { user_id: userId(), duration: 'duration_30d', email, phone })
    ).json();
    await t.deliverWebhooks();
    const data = {
      exclusion_id: created.exclusion_id,
      user_email: email.toLowerCase(),
      user_phone: phone,
      duration: 'duration_30d',
      is_permanent: false,
      expires_at: created.expires_at,
    };
    const [own] = verified(hookA, a, 'exclusion.created');
    const [other] = verified(hookB, b, 'exclusion.created');
    expect(own).toEqual({
      event: 'exclusion.created',
      event_id: expect.stringMatching(/^evt_/),
      timestamp: created.effective_from,
      data: { ...data, source: 'operator' },
    });
    expect(other!.data).toEqual({ ...data, source: 'regulator_comprehensive' });
    expect(hookA.received).toHaveLength(1);
    expect(hookB.received).toHaveLength(1);
    expect(hookQuiet.received).toEqual([]);
    expect(hookLive.received).toEqual([]);

    // A repeat (200) changes nothing and announces nothing.
    expect(
      (await exclude(t, a, { user_id: created.user_id, duration: 'duration_30d', email, phone })).statusCode,
    ).toBe(200);
    await t.deliverWebhooks();
    expect(hookA.received).toHaveLength(1);
    expect(hookB.received).toHaveLength(1);
    expect(hookQuiet.received).toEqual([]);
    // The quiet tenant was told nothing, yet its live check matches the row.
    expect((await check(t, quiet, { phone })).json()).toMatchObject({
      exclusion_id: created.exclusion_id,
      source: 'regulator_comprehensive',
    });
  });

  it('announces a permanent exclusion with exclusion.permanent only', async () => {
    const { t } = suite.current;
    const email = uniqueEmail();
    await show(t, b, [{ email }]);
    const created = (
      await exclude(t, a, { user_id: userId(), duration: 'duration_permanent', email })
    ).json();
    await t.deliverWebhooks();
    const data = {
      exclusion_id: created.exclusion_id,
      user_email: email.toLowerCase(),
      user_phone: null,
      duration: 'duration_permanent',
      is_permanent: true,
      expires_at: null,
    };
    expect(verified(hookA, a, 'exclusion.permanent').map((e) => e.data)).toEqual([
      { ...data, source: 'operator' },
    ]);
    expect(verified(hookB, b, 'exclusion.permanent').map((e) => e.data)).toEqual([
      { ...data, source: 'regulator_comprehensive' },
    ]);
    expect(hookA.of('exclusion.created')).toEqual([]);
    expect(hookB.of('exclusion.created')).toEqual([]);
    expect(hookQuiet.received).toEqual([]);
    expect(hookLive.received).toEqual([]);
  });

  it('announces regulator master-list entries with exclusion.regulator_synced to the tenants of their environment that showed them', async () => {
    const { t } = suite.current;
    const [email, phone] = [uniqueEmail(), uniquePhone()];
    await show(t, a, [{ email, phone }]);
    await show(t, b, [{ email, phone }]);
    await show(t, live, [{ phone }]);
    const response = await regulator(t, [
      { email, phone, duration: 'duration_1y', environment: 'sandbox' },
      { phone, duration: 'duration_permanent', environment: 'live' },
    ]);
    expect(response.statusCode).toBe(201);
    const [sandboxRow, liveRow] = response.json<{
      exclusions: { exclusion_id: string; created: boolean }[];
    }>().exclusions;
    await t.deliverWebhooks();
    const expiresAt = (
      await t.db
        .selectFrom('exclusions')
        .select('expires_at')
        .where('exclusion_id', '=', sandboxRow!.exclusion_id)
        .executeTakeFirstOrThrow()
    ).expires_at!.toISOString();
    for (const [hook, tenant] of [
      [hookA, a],
      [hookB, b],
    ] as const) {
      expect(verified(hook, tenant, 'exclusion.regulator_synced').map((e) => e.data)).toEqual([
        {
          exclusion_id: sandboxRow!.exclusion_id,
          user_email: email.toLowerCase(),
          user_phone: phone,
          duration: 'duration_1y',
          is_permanent: false,
          expires_at: expiresAt,
          source: 'regulator_comprehensive',
        },
      ]);
    }
    expect(verified(hookLive, live, 'exclusion.regulator_synced').map((e) => e.data)).toEqual([
      {
        exclusion_id: liveRow!.exclusion_id,
        user_email: null,
        user_phone: phone,
        duration: 'duration_permanent',
        is_permanent: true,
        expires_at: null,
        source: 'regulator_comprehensive',
      },
    ]);
    expect(hookQuiet.received).toEqual([]);
  });

  it('announces expiry with exclusion.expired to the tenants entitled to the row, user_id only to its own', async () => {
    const { t } = suite.current;
    const user = userId();
    const [email, masterPhone] = [uniqueEmail(), uniquePhone()];
    await show(t, a, [{ phone: masterPhone }]);
    await show(t, b, [{ email }, { phone: masterPhone }]);
    const created = (await exclude(t, a, { user_id: user, duration: 'duration_24h', email })).json();
    const master = (
      await regulator(t, [{ phone: masterPhone, duration: 'duration_24h', environment: 'sandbox' }])
    ).json().exclusions[0].exclusion_id;
    await t.advance(86_400);
    await t.deliverWebhooks();
    const expired = (exclusion_id: string, user_id: string | null, source: string) => ({
      exclusion_id,
      user_id,
      duration: 'duration_24h',
      expires_at: created.expires_at,
      source,
    });
    const byId = (hook: WebhookReceiver, tenant: TestTenant) =>
      verified(hook, tenant, 'exclusion.expired').sort((x, y) =>
        String(x.data.exclusion_id).localeCompare(String(y.data.exclusion_id)),
      );
    expect(byId(hookA, a).map((e) => e.data)).toEqual([
      expired(created.exclusion_id, user, 'operator'),
      expired(master, null, 'regulator_comprehensive'),
    ]);
    expect(byId(hookB, b).map((e) => e.data)).toEqual([
      expired(created.exclusion_id, null, 'regulator_comprehensive'),
      expired(master, null, 'regulator_comprehensive'),
    ]);
    expect(byId(hookA, a).map((e) => e.timestamp)).toEqual([created.expires_at, created.expires_at]);
    expect(hookQuiet.received).toEqual([]);
    expect(hookLive.received).toEqual([]);
  });
});
