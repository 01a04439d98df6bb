import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent } from '../../src/platform/outbox.js';
import { cliFor, type Cli } from '../helpers/cli.js';
import { TestService } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

describe('compliance CLI: webhook recovery', () => {
  let t: TestService;
  let receiver: WebhookReceiver;
  let cli: Cli;

  beforeAll(async () => {
    t = await TestService.start();
    receiver = await WebhookReceiver.start();
    cli = await cliFor(t);
    // The first npx run of a local bin can be slow (npx links the package into its cache); pay that here.
    expect((await cli('help')).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('redelivers every undelivered event of a tenant since a time, and enables a destination', async () => {
    const tenant = await t.createTenant({ webhookUrl: receiver.url });
    const since = t.platform.clock.now().toISOString();
    receiver.respondWith(503, 503);
    const produced = await t.db.transaction().execute(async (tx) => [
      ...(await emitEvent(tx, {
        tenantIds: tenant.tenantId,
        event: 'ping',
        data: { n: 1 },
        at: t.platform.clock.now(),
      })),
      ...(await emitEvent(tx, {
        tenantIds: tenant.tenantId,
        event: 'ping',
        data: { n: 2 },
        at: t.platform.clock.now(),
      })),
    ]);
    await t.deliverWebhooks();
    expect(receiver.received).toHaveLength(2);

    const redelivered = await cli('webhook', 'redeliver', tenant.tenantId, '--since', since);
    expect(redelivered.code, redelivered.stderr).toBe(0);
    expect(redelivered.stdout).toContain(`Queued 2 undelivered event(s) of ${tenant.tenantId}`);
    await t.deliverWebhooks();
    expect(
      receiver.received
        .slice(2)
        .map((r) => r.envelope.event_id)
        .sort(),
    ).toEqual(produced.map((e) => e.event_id).sort());

    const missing = await cli('webhook', 'redeliver', tenant.tenantId);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--since is required');

    const enabled = await cli('webhook', 'enable', tenant.tenantId);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stdout).toContain('Queued 0 undelivered event(s)');
  }, 90_000);
});
