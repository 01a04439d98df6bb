import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { emitEvent } from '../../src/platform/outbox.js';
import { MAX_IN_FLIGHT_PER_TENANT, WebhookDispatcher } from '../../src/platform/webhooks/dispatcher.js';
import { TestService } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

interface Deliveries {
  deliveries: { event_id: string; delivery_status: string }[];
}

describe('webhook delivery is fair across tenants', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const slowReceiver = own(await WebhookReceiver.start());
    const fastReceiver = own(await WebhookReceiver.start());
    // Closed first (last owned): answer the held requests and stop the workers before the rest closes.
    own({
      close: async () => {
        slowReceiver.release();
        await t.service.workers.stop();
      },
    });
    return { t, slowReceiver, fastReceiver };
  });

  it("a slow tenant's endpoint delays another tenant's delivery by under a second", async () => {
    const { t, slowReceiver, fastReceiver } = suite.current;
    // The slow endpoint holds every request open until the test releases it: a 14 s answer without a 14 s test.
    slowReceiver.hold();
    const slow = await t.createTenant({ webhookUrl: slowReceiver.url });
    const fast = await t.createTenant({ webhookUrl: fastReceiver.url });
    for (let i = 0; i < 6; i++) {
      expect((await t.backoffice('POST', `/tenants/${slow.tenantId}/webhook/ping`)).statusCode).toBe(202);
    }

    // The background loop of the service, as in production (polling every 250 ms).
    t.service.workers.start();
    await waitFor(() => slowReceiver.heldCount === MAX_IN_FLIGHT_PER_TENANT, 10_000);

    // The slow tenant's requests hang; the other tenant's event falls due now.
    const due = Date.now();
    const ping = await t.backoffice('POST', `/tenants/${fast.tenantId}/webhook/ping`);
    expect(ping.statusCode).toBe(202);
    await waitFor(() => fastReceiver.received.length === 1, 1_000);
    expect(Date.now() - due).toBeLessThan(1_000);
    expect(fastReceiver.received[0]!.envelope.event_id).toBe(ping.json<{ event_id: string }>().event_id);

    // All the while, the slow destination had no answer and no more than its share of attempts.
    expect(slowReceiver.heldCount).toBe(MAX_IN_FLIGHT_PER_TENANT);
    expect(slowReceiver.received).toHaveLength(MAX_IN_FLIGHT_PER_TENANT);
    const during = await t.backoffice('GET', `/tenants/${slow.tenantId}/webhook-deliveries`);
    expect(during.json<Deliveries>().deliveries.map((d) => d.delivery_status)).toEqual(
      Array(6).fill('pending'),
    );

    // Once it answers, the rest of its events follow, each sent once.
    slowReceiver.release();
    await waitFor(() => slowReceiver.received.length === 6, 10_000);
    let statuses: string[] = [];
    await waitFor(async () => {
      const after = await t.backoffice('GET', `/tenants/${slow.tenantId}/webhook-deliveries`);
      statuses = after.json<Deliveries>().deliveries.map((d) => d.delivery_status);
      return statuses.every((s) => s === 'delivered');
    }, 10_000);
    expect(statuses).toEqual(Array(6).fill('delivered'));
    expect(new Set(slowReceiver.received.map((r) => r.envelope.event_id)).size).toBe(6);
    await t.service.workers.stop();
  }, 40_000);

  it('two processes share the slow tenant fairly and send each event once', async () => {
    const { t } = suite.current;
    const held = await WebhookReceiver.start();
    const quick = [await WebhookReceiver.start(), await WebhookReceiver.start()];
    held.hold();
    const tenants = [
      await t.createTenant({ webhookUrl: held.url }),
      ...(await Promise.all(quick.map((r) => t.createTenant({ webhookUrl: r.url })))),
    ];
    const produced = await t.db.transaction().execute(async (tx) => {
      const all: string[][] = [];
      for (const tenant of tenants) {
        const ids: string[] = [];
        for (let i = 0; i < 10; i++) {
          const [e] = await emitEvent(tx, {
            tenantIds: tenant.tenantId,
            event: 'ping',
            data: { tenant_id: tenant.tenantId },
            at: t.platform.clock.now(),
          });
          ids.push(e!.event_id);
        }
        all.push(ids);
      }
      return all;
    });
    const { db, clock, log, secrets } = t.platform;
    const processes = [0, 1].map(
      () => new WebhookDispatcher(db, clock, { allowPrivate: true }, log, secrets),
    );
    const draining = Promise.all(processes.map((d) => d.drain()));

    // The other tenants get everything while the slow one holds at most its share of slots in each process.
    await waitFor(() => quick.every((r) => r.received.length === 10), 10_000);
    expect(held.heldCount).toBeGreaterThanOrEqual(MAX_IN_FLIGHT_PER_TENANT);
    expect(held.heldCount).toBeLessThanOrEqual(2 * MAX_IN_FLIGHT_PER_TENANT);
    held.release();
    await draining;
    await Promise.all(processes.map((d) => d.close()));

    for (const [index, receiver] of [held, ...quick].entries()) {
      expect(receiver.received.map((r) => r.envelope.event_id).sort()).toEqual([...produced[index]!].sort());
      await receiver.close();
    }
    const attempts = await t.db
      .selectFrom('webhook_attempts')
      .select('outcome')
      .where(
        'tenant_id',
        'in',
        tenants.map((x) => x.tenantId),
      )
      .execute();
    expect(attempts).toHaveLength(30);
    expect(attempts.every((a) => a.outcome === 'delivered')).toBe(true);
  }, 40_000);
});

async function waitFor(condition: () => boolean | Promise<boolean>, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
