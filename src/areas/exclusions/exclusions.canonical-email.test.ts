import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';
import { check, checkBatch, exclude, show, userId } from './exclusions.test-support.js';

/** A name no other test uses, to build one mailbox's variants from (letters and digits only). */
const unique = () => randomBytes(5).toString('hex');

/**
 * A player cannot slip past their own exclusion with another spelling of the same mailbox: case, a `+tag` on any
 * domain, and dots at gmail.com and googlemail.com (one provider) do not make another player.
 */
describe('matching an email in its canonical form', () => {
  const suite = useSuite(() => TenantDriver.start());

  it('matches Jane.Doe+casino@gmail.com under every spelling of that gmail mailbox, for every tenant', async () => {
    const { t } = suite.current;
    const [a, b] = [await t.createTenant(), await t.createTenant()];
    const id = unique();
    const created = (
      await exclude(t, a, {
        user_id: userId(),
        duration: 'duration_1y',
        email: `Jane.Doe${id}+casino@gmail.com`,
      })
    ).json();
    const matched = {
      is_excluded: true,
      exclusion_id: created.exclusion_id,
      duration: 'duration_1y',
      expires_at: created.expires_at,
      is_permanent: false,
    };
    for (const email of [
      `janedoe${id}@gmail.com`,
      `JANE.DOE${id}@googlemail.com`,
      `jane.doe${id}+other@gmail.com`,
      `j.a.n.e.d.o.e${id}@GMAIL.COM`,
      `Jane.Doe${id}+casino@gmail.com`,
    ]) {
      expect([email, (await check(t, a, { email })).json()]).toEqual([
        email,
        { ...matched, source: 'operator' },
      ]);
      expect([email, (await check(t, b, { email })).json()]).toEqual([
        email,
        { ...matched, source: 'regulator_comprehensive' },
      ]);
    }
    // The batch check matches the same way.
    const batch = await checkBatch(t, b, {
      contacts: [
        { reference: 'plain', email: `janedoe${id}@googlemail.com` },
        { reference: 'other-domain', email: `janedoe${id}@example.com` },
      ],
    });
    expect(batch.json().results).toEqual([
      { reference: 'plain', ...matched, source: 'regulator_comprehensive' },
      { reference: 'other-domain', is_excluded: false },
    ]);
  });

  it('ignores dots only where the provider does: jane.doe@example.com is not janedoe@example.com', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const id = unique();
    const created = (
      await exclude(t, tenant, {
        user_id: userId(),
        duration: 'duration_30d',
        email: `jane.doe${id}@example.com`,
      })
    ).json();
    expect((await check(t, tenant, { email: `janedoe${id}@example.com` })).json()).toEqual({
      is_excluded: false,
    });
    expect((await check(t, tenant, { email: `jane.doe${id}@gmail.com` })).json()).toEqual({
      is_excluded: false,
    });
    expect((await check(t, tenant, { email: `jane.doe${id}@example.org` })).json()).toEqual({
      is_excluded: false,
    });
    for (const email of [`JANE.DOE${id}@Example.com`, `jane.doe${id}+newsletter@example.com`]) {
      expect([email, (await check(t, tenant, { email })).json().exclusion_id]).toEqual([
        email,
        created.exclusion_id,
      ]);
    }
  });

  it('drops a +tag on every domain: jane+x@example.com is jane@example.com', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const id = unique();
    const created = (
      await exclude(t, tenant, {
        user_id: userId(),
        duration: 'duration_7d',
        email: `jane${id}+x@example.com`,
      })
    ).json();
    for (const email of [`jane${id}@example.com`, `jane${id}+y@example.com`, `Jane${id}+X@EXAMPLE.COM`]) {
      expect([email, (await check(t, tenant, { email })).json().exclusion_id]).toEqual([
        email,
        created.exclusion_id,
      ]);
    }
    expect((await check(t, tenant, { email: `jane${id}x@example.com` })).json()).toEqual({
      is_excluded: false,
    });
  });

  it('counts any spelling of a mailbox as showing it: a tenant that checked janedoe@googlemail.com hears of Jane.Doe+casino@gmail.com', async () => {
    const { t } = suite.current;
    const a = await t.createTenant();
    const hook = suite.own(await WebhookReceiver.start());
    const b = await t.createTenant({ webhookUrl: hook.url });
    const id = unique();
    await show(t, b, [{ email: `janedoe${id}@googlemail.com` }]);
    const created = (
      await exclude(t, a, {
        user_id: userId(),
        duration: 'duration_permanent',
        email: `Jane.Doe${id}+casino@gmail.com`,
      })
    ).json();
    await t.deliverWebhooks();
    expect(hook.verified(b.signingSecret).map((e) => [e.event, e.data.exclusion_id, e.data.source])).toEqual([
      ['exclusion.permanent', created.exclusion_id, 'regulator_comprehensive'],
    ]);
    const snapshot = await t.api(b.apiKey, 'GET', '/v1/exclusions/snapshot');
    expect(snapshot.json().exclusions.map((row: { exclusion_id: string }) => row.exclusion_id)).toEqual([
      created.exclusion_id,
    ]);
  });
});
