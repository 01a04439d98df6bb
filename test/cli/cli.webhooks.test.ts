import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { emitEvent } from '../../src/platform/outbox.js';
import { cliFor } from '../helpers/cli.js';
import { TestService } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

describe('compliance CLI: webhook recovery', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const receiver = own(await WebhookReceiver.start());
    const cli = await cliFor(t);
    // The first npx run of a local bin can be slow (npx links the package into its cache); pay that here.
    expect((await cli('help')).code).toBe(0);
    return { t, receiver, cli };
  });

  it('redelivers every undelivered event of a tenant since a time, and enables a destination', async () => {
    const { t, receiver, cli } = suite.current;
    const tenant = await t.createTenant({ webhookUrl: receiver.url });
    const since = t.platform.clock.now().toISOString();
    receiver.respondWith(503, 503);
    const produced = await t.db.transaction().execute(async (tx) => [
      ...(await emitEvent(tx, {
        tenantIds: tenant.tenantId,
        event: 'ping',
        data: { tenant_id: tenant.tenantId },
        at: t.platform.clock.now(),
      })),
      ...(await emitEvent(tx, {
        tenantIds: tenant.tenantId,
        event: 'ping',
        data: { tenant_id: tenant.tenantId },
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
