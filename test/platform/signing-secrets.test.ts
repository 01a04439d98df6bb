// Restarts services on their database, some under another secrets key (TestService.start on what stop() kept).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { TestService, type TestTenant } from '../helpers/test-service.js';
import { WebhookReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.js';
import { HOUR } from '../helpers/units.js';

/** Every row of every table of the service's schema, as PostgreSQL prints it: what a dump of the data holds. */
async function everyRow(t: TestService): Promise<string> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.db);
  const parts: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(
      t.db,
    );
    parts.push(...rows.rows.map((r) => `${table_name}: ${r.row}`));
  }
  return parts.join('\n');
}

/** The ways a whsec_ secret could be written: as given, its base64 body, and its bytes in hex. */
function spellings(secret: string): string[] {
  const body = secret.slice('whsec_'.length);
  return [secret, body, Buffer.from(body, 'base64').toString('hex')];
}

function pgDump(url: string): string | undefined {
  if (spawnSync('pg_dump', ['--version']).status !== 0) return undefined;
  const dump = spawnSync('pg_dump', ['--no-owner', url], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  expect(dump.status, dump.stderr).toBe(0);
  return dump.stdout;
}

/** The embedded database's files (not the key beside them): a copy of them alone must not carry a secret. */
function pgliteFiles(dataDir: string): Buffer[] {
  const root = path.join(dataDir, 'pglite');
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name)));
}

const verifies = (secret: string, delivery: ReceivedWebhook) => {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe('signing secrets at rest', () => {
  const suite = useSuite(async (own) => ({
    t: own(await TestService.start()),
    receiver: own(await WebhookReceiver.start()),
  }));

  it('a dump of the database holds no signing secret in plain text, while webhooks still verify', async () => {
    const { t, receiver } = suite.current;
    const tenants: TestTenant[] = [];
    for (let i = 0; i < 3; i++) tenants.push(await t.createTenant({ webhookUrl: receiver.url }));
    const rotation = await t.backoffice('POST', `/tenants/${tenants[0]!.tenantId}/signing-secret/rotate`, {
      overlap_hours: 24,
    });
    expect(rotation.statusCode).toBe(200);
    const rotated = rotation.json<{ signing_secret: string }>().signing_secret;
    for (const tenant of tenants) await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/ping`);
    await t.deliverWebhooks();

    const secrets = [...tenants.map((tenant) => tenant.signingSecret), rotated];
    for (const tenant of tenants) {
      const own = receiver.received.filter((r) => r.envelope.data.tenant_id === tenant.tenantId);
      expect(own).toHaveLength(1);
      expect(verifies(tenant.signingSecret, own[0]!)).toBe(true);
    }

    const stored = await t.db.selectFrom('tenants').select('signing_secret').execute();
    expect(stored.every((row) => row.signing_secret.startsWith('enc:v2:'))).toBe(true);
    const dumps = [await everyRow(t)];
    if (t.config.databaseUrl) {
      const dump = pgDump(t.config.databaseUrl);
      if (dump) dumps.push(dump);
    }
    for (const dump of dumps) {
      expect(dump).toContain(tenants[0]!.tenantId);
      expect(dump).not.toContain('whsec_');
      for (const spelling of secrets.flatMap(spellings)) expect(dump).not.toContain(spelling);
    }
    if (!t.config.databaseUrl) {
      for (const file of pgliteFiles(t.config.dataDir)) {
        for (const spelling of secrets.flatMap(spellings)) expect(file.includes(spelling)).toBe(false);
      }
    }
  });

  it('encrypts the secrets an older release stored in plain text, by the re-encryption job after start, once', async () => {
    const { receiver } = suite.current;
    const first = await TestService.start();
    let restarted: TestService | undefined;
    try {
      const tenant = await first.createTenant({ webhookUrl: receiver.url });
      const legacy = 'whsec_' + randomBytes(32).toString('base64');
      await first.db
        .updateTable('tenants')
        .set({ signing_secret: legacy })
        .where('tenant_id', '=', tenant.tenantId)
        .execute();

      restarted = await TestService.start({}, await first.stop());
      // A worker pass runs the re-encryption job the start found work for, then delivers the ping.
      await restarted.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/ping`);
      await restarted.deliverWebhooks();
      const sealed = await restarted.db
        .selectFrom('tenants')
        .select('signing_secret')
        .where('tenant_id', '=', tenant.tenantId)
        .executeTakeFirstOrThrow();
      expect(sealed.signing_secret).toMatch(/^enc:v2:/);
      expect(await everyRow(restarted)).not.toContain(legacy.slice(6));
      const delivery = receiver.received.find((r) => r.envelope.data.tenant_id === tenant.tenantId)!;
      expect(verifies(legacy, delivery)).toBe(true);

      // A second start finds nothing to encrypt and changes nothing.
      restarted = await TestService.start({}, await restarted.stop());
      await restarted.deliverWebhooks();
      const again = await restarted.db
        .selectFrom('tenants')
        .select('signing_secret')
        .where('tenant_id', '=', tenant.tenantId)
        .executeTakeFirstOrThrow();
      expect(again.signing_secret).toBe(sealed.signing_secret);
    } finally {
      await restarted?.stop();
      await first.close();
    }
  });

  it('refuses to start with a key that does not decrypt the stored secrets', async () => {
    const first = await TestService.start();
    try {
      await first.createTenant();
      const kept = await first.stop();
      await expect(TestService.start({ secretsKey: randomBytes(32) }, kept)).rejects.toThrow(
        /Stored secrets are encrypted under key [0-9a-f]{16}, which is not configured/,
      );
    } finally {
      await first.close();
    }
  });
});

describe('signing-secret rotation', () => {
  const suite = useSuite(() => TestService.start());
  let receiver: WebhookReceiver;
  afterEach(() => receiver.close());

  async function tenantWithReceiver() {
    const t = suite.current;
    receiver = await WebhookReceiver.start();
    return t.createTenant({ webhookUrl: receiver.url });
  }

  async function ping(tenantId: string): Promise<ReceivedWebhook> {
    const t = suite.current;
    const before = receiver.received.length;
    expect((await t.backoffice('POST', `/tenants/${tenantId}/webhook/ping`)).statusCode).toBe(202);
    await t.deliverWebhooks();
    expect(receiver.received).toHaveLength(before + 1);
    return receiver.received.at(-1)!;
  }

  const storedRow = (tenantId: string) =>
    suite.current.db
      .selectFrom('tenants')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();

  it('signs with the old and the new secret during the overlap, then with the new one only', async () => {
    const t = suite.current;
    const tenant = await tenantWithReceiver();
    // No body: the default overlap of 24 hours.
    const rotation = await t.backoffice('POST', `/tenants/${tenant.tenantId}/signing-secret/rotate`);
    expect(rotation.statusCode).toBe(200);
    const body = rotation.json<{ signing_secret: string; previous_secret_expires_at: string }>();
    const now = new Date((await t.backoffice('GET', '/clock')).json<{ now: string }>().now);
    expect(body).toEqual({
      tenant_id: tenant.tenantId,
      signing_secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: new Date(now.getTime() + 24 * HOUR * 1000).toISOString(),
    });
    expect(body.signing_secret).not.toBe(tenant.signingSecret);

    // During the overlap: two signatures, each verifying with its secret (a receiver on either secret is fine).
    const during = await ping(tenant.tenantId);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(tenant.signingSecret, during)).toBe(true);
    expect(verifies(body.signing_secret, during)).toBe(true);

    await t.advance(24 * HOUR - 60);
    const late = await ping(tenant.tenantId);
    expect(verifies(tenant.signingSecret, late)).toBe(true);
    expect(verifies(body.signing_secret, late)).toBe(true);

    // Past the overlap: the old secret is deleted and no longer signs.
    await t.advance(60);
    expect(await storedRow(tenant.tenantId)).toMatchObject({
      previous_signing_secret: null,
      previous_signing_secret_expires_at: null,
    });
    const after = await ping(tenant.tenantId);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(body.signing_secret, after)).toBe(true);
    expect(verifies(tenant.signingSecret, after)).toBe(false);
  });

  it('is audited in the tenant log, without either secret', async () => {
    const t = suite.current;
    const tenant = await tenantWithReceiver();
    const rotation = await t.backoffice('POST', `/tenants/${tenant.tenantId}/signing-secret/rotate`, {
      overlap_hours: 2,
    });
    const { signing_secret } = rotation.json<{ signing_secret: string }>();
    const log = await t.backoffice('GET', `/tenants/${tenant.tenantId}/audit-log`);
    const entry = log
      .json<{ entries: { action: string; actor: string; request_id: string; details: object }[] }>()
      .entries.find((e) => e.action === 'webhook.signing_secret_rotated');
    expect(entry).toMatchObject({
      actor: 'backoffice',
      request_id: rotation.headers['x-request-id'],
      details: { overlap_hours: 2, previous_secret_expires_at: expect.any(String) },
    });
    expect(log.body).not.toContain(signing_secret.slice(6));
    expect(log.body).not.toContain(tenant.signingSecret.slice(6));
  });

  it('with overlap_hours 0 the old secret stops signing at once', async () => {
    const t = suite.current;
    const tenant = await tenantWithReceiver();
    const rotation = await t.backoffice('POST', `/tenants/${tenant.tenantId}/signing-secret/rotate`, {
      overlap_hours: 0,
    });
    expect(rotation.json()).toMatchObject({ previous_secret_expires_at: null });
    const delivery = await ping(tenant.tenantId);
    expect(verifies(rotation.json<{ signing_secret: string }>().signing_secret, delivery)).toBe(true);
    expect(verifies(tenant.signingSecret, delivery)).toBe(false);
    expect((await storedRow(tenant.tenantId)).previous_signing_secret).toBeNull();
  });

  it('a second rotation during an overlap keeps only the secret it replaces', async () => {
    const t = suite.current;
    const tenant = await tenantWithReceiver();
    const second = (
      await t.backoffice('POST', `/tenants/${tenant.tenantId}/signing-secret/rotate`, {})
    ).json<{ signing_secret: string }>().signing_secret;
    await t.advance(HOUR);
    const third = (
      await t.backoffice('POST', `/tenants/${tenant.tenantId}/signing-secret/rotate`, { overlap_hours: 1 })
    ).json<{ signing_secret: string }>().signing_secret;
    const during = await ping(tenant.tenantId);
    expect([tenant.signingSecret, second, third].map((s) => verifies(s, during))).toEqual([
      false,
      true,
      true,
    ]);
    await t.advance(HOUR);
    const after = await ping(tenant.tenantId);
    expect([tenant.signingSecret, second, third].map((s) => verifies(s, after))).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('answers 404 for an unknown tenant and 400 for a bad overlap, changing nothing', async () => {
    const t = suite.current;
    const tenant = await tenantWithReceiver();
    const unknown = await t.backoffice('POST', '/tenants/ten_unknown/signing-secret/rotate', {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('tenant_not_found');
    for (const body of [{ overlap_hours: -1 }, { overlap_hours: 1.5 }, { overlap_hours: 10_000 }, { x: 1 }]) {
      const refused = await t.backoffice('POST', `/tenants/${tenant.tenantId}/signing-secret/rotate`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json()).toEqual({
        error: 'invalid_request',
        message: expect.any(String),
        request_id: expect.any(String),
      });
    }
    const delivery = await ping(tenant.tenantId);
    expect(verifies(tenant.signingSecret, delivery)).toBe(true);
    expect((await storedRow(tenant.tenantId)).previous_signing_secret).toBeNull();
  });
});
