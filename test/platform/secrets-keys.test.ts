// Restarts services on their database, some under another secrets key (TestService.start on what stop() kept).
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { show, uniqueEmail, userId } from '../../src/areas/exclusions/exclusions.test-support.js';
import { canonicalEmail, normaliseEmail } from '../../src/areas/exclusions/contact.js';
import { Secrets, secretsKeyId } from '../../src/platform/secrets.js';
import { createStaffMember, form, nextCode, signInAs } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { TestService, type TestTenant } from '../helpers/test-service.js';
import { WebhookReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.js';

const verifies = (secret: string, delivery: ReceivedWebhook) => {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

/** A signing secret as the release before key ids stored it: `enc:v1:`, no additional data. */
function sealedV1(master: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Secrets.subKey(master, 'webhook-signing-secret'), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return 'enc:v1:' + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** Every encrypted value the database holds, as stored. */
async function storedValues(t: TestService): Promise<string[]> {
  const tenants = await t.db
    .selectFrom('tenants')
    .select(['signing_secret', 'previous_signing_secret'])
    .execute();
  const staff = await t.db.selectFrom('staff_accounts').select('totp_secret').execute();
  const hashKeys = await t.db.selectFrom('secret_hash_keys').select('sealed_key').execute();
  return [
    ...tenants.flatMap((row) => [row.signing_secret, row.previous_signing_secret]),
    ...staff.map((row) => row.totp_secret),
    ...hashKeys.map((row) => row.sealed_key),
  ].filter((value): value is string => value !== null);
}

async function pingDelivery(t: TestService, receiver: WebhookReceiver, tenant: TestTenant) {
  expect((await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/ping`)).statusCode).toBe(202);
  await t.deliverWebhooks();
  return receiver.received.filter((r) => r.envelope.data.tenant_id === tenant.tenantId).at(-1);
}

const setSigningSecret = (t: TestService, tenantId: string, value: string) =>
  t.db.updateTable('tenants').set({ signing_secret: value }).where('tenant_id', '=', tenantId).execute();

describe('encrypted values are bound to their row', () => {
  const suite = useSuite(async (own) => ({
    t: own(await TestService.start()),
    receiver: own(await WebhookReceiver.start()),
  }));

  it("a signing secret copied into another tenant's row does not decrypt: that tenant's deliveries fail unsigned and unsent", async () => {
    const { t, receiver } = suite.current;
    const a = await t.createTenant({ webhookUrl: receiver.url });
    const b = await t.createTenant({ webhookUrl: receiver.url });
    const { signing_secret } = await t.db
      .selectFrom('tenants')
      .select('signing_secret')
      .where('tenant_id', '=', a.tenantId)
      .executeTakeFirstOrThrow();
    await setSigningSecret(t, b.tenantId, signing_secret);

    expect(await pingDelivery(t, receiver, b)).toBeUndefined();
    const log = await t.backoffice('GET', `/tenants/${b.tenantId}/webhook-deliveries`);
    expect(log.json().deliveries[0]).toMatchObject({
      attempt_count: 1,
      attempts: [{ attempt_number: 1, status_code: null, error: 'signing secret unreadable' }],
    });
    expect(log.body).not.toContain('whsec_');
    // The row it was copied from still signs.
    expect(verifies(a.signingSecret, (await pingDelivery(t, receiver, a))!)).toBe(true);
  });

  it("an authenticator key copied into another account's row does not decrypt: the sign-in says so, opens no session, and is audited", async () => {
    const { t } = suite.current;
    const owner = await createStaffMember(t, 'reviewer');
    const victim = await createStaffMember(t, 'supervisor');
    const { totp_secret } = await t.db
      .selectFrom('staff_accounts')
      .select('totp_secret')
      .where('staff_id', '=', owner.staffId)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('staff_accounts')
      .set({ totp_secret })
      .where('staff_id', '=', victim.staffId)
      .execute();

    // With the victim's password and the code of the authenticator whose key was copied.
    const response = await t.inject({
      method: 'POST',
      url: '/console/login',
      payload: form({ email: victim.email, password: victim.password, code: await nextCode(t, owner) }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.body).toContain('cannot read this account&#39;s authenticator key');
    expect(response.body).not.toContain(totp_secret!);
    expect(response.headers['set-cookie'] ?? '').not.toMatch(/console_session=[^;]/);
    const audited = await t.db
      .selectFrom('audit_log')
      .select(['actor', 'details'])
      .where('action', '=', 'staff.authenticator_unreadable')
      .execute();
    expect(audited).toEqual([{ actor: victim.staffId, details: { staff_id: victim.staffId } }]);
    // The account the key belongs to still signs in.
    await signInAs(t, owner);
  });
});

describe('rotating the master key', () => {
  const suite = useSuite(async (own) => ({ receiver: own(await WebhookReceiver.start()) }));

  it('re-encrypts every value under the new key in batches; hashes, webhooks and sign-ins still work once the old key is gone', async () => {
    const { receiver } = suite.current;
    const [k1, k2] = [randomBytes(32), randomBytes(32)];
    const first = await TestService.start({ secretsKey: k1 });
    let t: TestService | undefined;
    try {
      const [a, b, plain, legacy] = [
        await first.createTenant({ webhookUrl: receiver.url }),
        await first.createTenant({ webhookUrl: receiver.url }),
        await first.createTenant({ webhookUrl: receiver.url }),
        await first.createTenant({ webhookUrl: receiver.url }),
      ];
      // A rotation in its overlap: the previous secret is stored too.
      const rotated = (
        await first.backoffice('POST', `/tenants/${a.tenantId}/signing-secret/rotate`, { overlap_hours: 48 })
      ).json<{ signing_secret: string }>().signing_secret;
      // Rows as older releases left them: a secret in plain text, and one sealed before key ids.
      await setSigningSecret(first, plain.tenantId, plain.signingSecret);
      await setSigningSecret(first, legacy.tenantId, sealedV1(k1, legacy.signingSecret));
      const staff = await createStaffMember(first, 'reviewer');
      // b shows an email: its sighting is a keyed hash made before the rotation.
      const email = uniqueEmail();
      await show(first, b, [{ email }]);

      t = await TestService.start(
        { secretsKey: k2, secretsOldKeys: [k1], secretsReencryptBatchSize: 2 },
        await first.stop(),
      );
      const before = (await t.backoffice('GET', '/secrets/keys')).json();
      expect(before).toMatchObject({
        current_key_id: secretsKeyId(k2),
        previous_key_ids: [secretsKeyId(k1)],
      });
      expect(before.values_to_reencrypt).toBe((await storedValues(t)).length);
      // Four current signing secrets, one previous, three authenticator keys (the two admins who bootstrapped the
      // staff, and the reviewer), three hash keys.
      expect(before.values_to_reencrypt).toBe(11);

      // A batch of two per run, a second apart on the service clock.
      const left = async () => (await t!.backoffice('GET', '/secrets/keys')).json().values_to_reencrypt;
      await t.deliverWebhooks();
      expect(await left()).toBe(9);
      for (const expected of [7, 5, 3, 1, 0]) {
        await t.advance(1);
        expect(await left()).toBe(expected);
      }
      const after = (await t.backoffice('GET', '/secrets/keys')).json();
      expect(after.stored.every((s: { key_id: string }) => s.key_id === secretsKeyId(k2))).toBe(true);
      const values = await storedValues(t);
      expect(values).toHaveLength(11);
      for (const value of values) expect(value).toMatch(new RegExp(`^enc:v2:${secretsKeyId(k2)}:`));

      // The old key removed from the configuration: the service starts, and everything opens under the new one.
      t = await TestService.start({ secretsKey: k2 }, await t.stop());
      const during = (await pingDelivery(t, receiver, a))!;
      expect([verifies(rotated, during), verifies(a.signingSecret, during)]).toEqual([true, true]);
      for (const tenant of [b, plain, legacy]) {
        expect(verifies(tenant.signingSecret, (await pingDelivery(t, receiver, tenant))!)).toBe(true);
      }
      await signInAs(t, staff);

      // The contact hashes did not change: a row registered now reaches b, which showed its email before.
      const registered = await t.api(a.apiKey, 'POST', '/v1/exclusions', {
        user_id: userId(),
        duration: 'duration_24h',
        email,
      });
      expect(registered.statusCode).toBe(201);
      const snapshot = await t.api(b.apiKey, 'GET', '/v1/exclusions/snapshot?limit=1000');
      expect(snapshot.json().exclusions).toMatchObject([
        { exclusion_id: registered.json().exclusion_id, email: email.toLowerCase() },
      ]);
      const check = await t.api(b.apiKey, 'GET', `/v1/exclusions/check?email=${encodeURIComponent(email)}`);
      expect(check.json()).toMatchObject({ is_excluded: true, exclusion_id: registered.json().exclusion_id });
    } finally {
      await t?.stop();
      await first.close();
    }
  });

  it("refuses to start when a stored value's key is not configured, naming the key", async () => {
    const [k1, k2] = [randomBytes(32), randomBytes(32)];
    const first = await TestService.start({ secretsKey: k1 });
    try {
      await first.createTenant();
      const kept = await first.stop();
      await expect(TestService.start({ secretsKey: k2 }, kept)).rejects.toThrow(
        `Stored secrets are encrypted under key ${secretsKeyId(k1)}, which is not configured (current key ${secretsKeyId(k2)})`,
      );
      // With the key beside the new one, it starts.
      await (await TestService.start({ secretsKey: k2, secretsOldKeys: [k1] }, kept)).stop();
    } finally {
      await first.close();
    }
  });

  it('stores, on the first start of an existing database, exactly the hash keys the hashes were made with', async () => {
    const k1 = randomBytes(32);
    const first = await TestService.start({ secretsKey: k1 });
    let t: TestService | undefined;
    try {
      const tenant = await first.createTenant();
      const email = uniqueEmail();
      await show(first, tenant, [{ email }]);
      // The release before derived the key from the master key and stored none.
      const before = createHmac('sha256', Secrets.subKey(k1, 'contact-hash'))
        .update(`email:${canonicalEmail(normaliseEmail(email))}`)
        .digest('hex')
        .slice(0, 32);
      const sighting = await first.db
        .selectFrom('contact_sightings')
        .select('contact_hash')
        .where('tenant_id', '=', tenant.tenantId)
        .executeTakeFirstOrThrow();
      expect(sighting.contact_hash).toBe(before);
      await first.db.deleteFrom('secret_hash_keys').execute();
      const kept = await first.stop();

      // Which key made the hashes is not guessed while previous keys are configured.
      await expect(
        TestService.start({ secretsKey: randomBytes(32), secretsOldKeys: [k1] }, kept),
      ).rejects.toThrow(/hash keys \(contact-hash, embed-code\) are not stored yet/);

      t = await TestService.start({ secretsKey: k1 }, kept);
      const other = await t.createTenant();
      await t.api(other.apiKey, 'POST', '/v1/exclusions', {
        user_id: userId(),
        duration: 'duration_24h',
        email,
      });
      const snapshot = await t.api(tenant.apiKey, 'GET', '/v1/exclusions/snapshot?limit=1000');
      expect(snapshot.json().exclusions).toMatchObject([{ email: email.toLowerCase() }]);

      // A purpose added since (the pseudonyms) has no hashes yet: its key is made under the current master key, even
      // with previous keys configured.
      await t.db.deleteFrom('secret_hash_keys').where('purpose', '=', 'pseudonym').execute();
      const rotated = await t.stop();
      t = await TestService.start({ secretsKey: randomBytes(32), secretsOldKeys: [k1] }, rotated);
      const stored = await t.db.selectFrom('secret_hash_keys').select('purpose').orderBy('purpose').execute();
      expect(stored.map((row) => row.purpose)).toEqual(['contact-hash', 'embed-code', 'pseudonym']);
    } finally {
      await t?.stop();
      await first.close();
    }
  });
});
