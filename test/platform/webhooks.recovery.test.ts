import { afterEach, describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { emitEvent } from '../../src/platform/outbox.js';
import {
  MAX_ATTEMPTS,
  REDELIVERY_HORIZON_DAYS,
  RETRY_JITTER,
  RETRY_SCHEDULE_SECONDS,
} from '../../src/platform/webhooks/dispatcher.js';
import { TestService, type TestTenant } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { DAY, HOUR } from '../helpers/units.js';

interface Deliveries {
  deliveries: { event_id: string; delivery_status: string; attempt_count: number }[];
}

describe('webhook delivery through outages, and recovery', () => {
  const suite = useSuite(() => TestService.start());
  let receiver: WebhookReceiver;
  afterEach(() => receiver.close());

  const ping = async (tenant: TestTenant) => {
    const t = suite.current;
    const response = await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/ping`);
    expect(response.statusCode).toBe(202);
    return response.json<{ event_id: string }>().event_id;
  };
  const emit = async (tenant: TestTenant) => {
    const t = suite.current;
    const [envelope] = await t.db.transaction().execute((tx) =>
      emitEvent(tx, {
        tenantIds: tenant.tenantId,
        event: 'ping',
        data: { tenant_id: tenant.tenantId },
        at: t.platform.clock.now(),
      }),
    );
    return envelope!.event_id;
  };
  const deliveries = async (tenant: TestTenant) => {
    const t = suite.current;
    const response = await t.backoffice('GET', `/tenants/${tenant.tenantId}/webhook-deliveries?limit=1000`);
    return response.json<Deliveries>().deliveries;
  };

  it('a destination down for three days loses nothing: every event arrives once it answers again', async () => {
    const t = suite.current;
    receiver = await WebhookReceiver.start();
    const tenant = await t.createTenant({ webhookUrl: receiver.url });
    receiver.down = true;

    // Events keep coming during the outage; each is retried on the schedule meanwhile.
    const produced: string[] = [];
    for (let hour = 0; hour < 72; hour += 6) {
      produced.push(await ping(tenant), await ping(tenant));
      await t.deliverWebhooks();
      await t.advance(6 * HOUR);
      await t.deliverWebhooks();
    }
    expect(receiver.received.length).toBeGreaterThan(produced.length);
    expect((await deliveries(tenant)).every((d) => d.delivery_status === 'pending')).toBe(true);

    // The endpoint recovers after three days; within the longest wait of the schedule every event is delivered.
    receiver.down = false;
    const before = receiver.received.length;
    const longestWait = Math.max(...RETRY_SCHEDULE_SECONDS) * (1 + RETRY_JITTER);
    for (let waited = 0; waited <= longestWait; waited += HOUR) {
      await t.advance(HOUR);
      await t.deliverWebhooks();
    }
    const after = receiver.received.slice(before).map((r) => r.envelope.event_id);
    expect([...after].sort()).toEqual([...produced].sort());
    expect(await deliveries(tenant)).toHaveLength(produced.length);
    expect((await deliveries(tenant)).every((d) => d.delivery_status === 'delivered')).toBe(true);
    const view = await t.backoffice('GET', `/tenants/${tenant.tenantId}`);
    expect(view.json().webhook_disabled_at).toBeNull();
  }, 120_000);

  it('past the whole schedule the destination is disabled, staff are alerted, and enabling it sends everything', async () => {
    const t = suite.current;
    receiver = await WebhookReceiver.start();
    const tenant = await t.createTenant({ webhookUrl: receiver.url });
    receiver.down = true;
    const first = await ping(tenant);
    await t.deliverWebhooks();
    const later: string[] = [];
    for (const wait of RETRY_SCHEDULE_SECONDS) {
      later.push(await ping(tenant));
      await t.advance(Math.ceil(wait * (1 + RETRY_JITTER)) + 1);
      await t.deliverWebhooks();
    }

    // Attempts in flight when it happened find the destination disabled at their next turn.
    await t.advance(DAY);
    await t.deliverWebhooks();

    // The first event had every attempt fail: the destination is disabled, and the staff see why.
    const view = await t.backoffice('GET', `/tenants/${tenant.tenantId}`);
    expect(view.json().webhook_disabled_at).toEqual(expect.any(String));
    const alerts = await t.backoffice('GET', '/alerts?kind=webhook_destination_disabled');
    expect(alerts.json().alerts).toContainEqual(
      expect.objectContaining({
        kind: 'webhook_destination_disabled',
        subject: tenant.tenantId,
        details: { url: receiver.url, event_id: first },
      }),
    );
    const statuses = new Map((await deliveries(tenant)).map((d) => [d.event_id, d]));
    expect(statuses.get(first)).toMatchObject({ delivery_status: 'failed', attempt_count: MAX_ATTEMPTS });
    // The rest wait for the destination instead of using up their attempts.
    for (const id of later) expect(statuses.get(id)!.delivery_status).toBe('no_destination');
    const audit = await t.backoffice('GET', `/tenants/${tenant.tenantId}/audit-log`);
    expect(audit.json().entries.map((e: { action: string }) => e.action)).toContain('webhook.disabled');

    // New events wait too, with no attempt, while it is disabled.
    const attemptsSoFar = receiver.received.length;
    const whileDisabled = await ping(tenant);
    await t.deliverWebhooks();
    expect(receiver.received).toHaveLength(attemptsSoFar);

    // Staff enable it once the tenant's endpoint answers; everything is queued again, oldest first.
    receiver.down = false;
    const enabled = await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/enable`);
    expect(enabled.statusCode).toBe(200);
    const produced = [first, ...later, whileDisabled];
    expect(enabled.json()).toMatchObject({ tenant_id: tenant.tenantId, requeued: produced.length });
    const queued = await t.db
      .selectFrom('events')
      .select('event_id')
      .where('tenant_id', '=', tenant.tenantId)
      .where('delivery_status', '=', 'pending')
      .orderBy('next_attempt_at')
      .execute();
    expect(queued.map((e) => e.event_id)).toEqual(produced);
    await t.deliverWebhooks();
    expect(
      receiver.received
        .slice(attemptsSoFar)
        .map((r) => r.envelope.event_id)
        .sort(),
    ).toEqual([...produced].sort());
    expect((await deliveries(tenant)).every((d) => d.delivery_status === 'delivered')).toBe(true);
    expect((await t.backoffice('GET', `/tenants/${tenant.tenantId}`)).json().webhook_disabled_at).toBeNull();
  }, 120_000);

  it('events stored without a destination go to the one registered, within the horizon', async () => {
    const t = suite.current;
    receiver = await WebhookReceiver.start();
    const tenant = await t.createTenant();
    const tooOld = await emit(tenant);
    await t.deliverWebhooks();
    await t.advance((REDELIVERY_HORIZON_DAYS + 1) * DAY);
    const recent = [await emit(tenant), await emit(tenant)];
    await t.deliverWebhooks();
    expect((await deliveries(tenant)).map((d) => d.delivery_status)).toEqual(Array(3).fill('no_destination'));

    const registered = await t.backoffice('PUT', `/tenants/${tenant.tenantId}/webhook`, {
      url: receiver.url,
    });
    expect(registered.statusCode).toBe(200);
    await t.deliverWebhooks();
    expect(receiver.received.map((r) => r.envelope.event_id).sort()).toEqual([...recent].sort());

    // Older events are the staff's call: redelivery since a time reaches any of them.
    const since = new Date(Date.parse(await t.advance(0)) - (REDELIVERY_HORIZON_DAYS + 2) * DAY * 1000);
    const redelivered = await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/redeliver`, {
      since: since.toISOString(),
    });
    expect(redelivered.statusCode).toBe(202);
    expect(redelivered.json()).toMatchObject({ tenant_id: tenant.tenantId, requeued: 1 });
    await t.deliverWebhooks();
    expect(receiver.received.map((r) => r.envelope.event_id).at(-1)).toBe(tooOld);
    expect((await deliveries(tenant)).every((d) => d.delivery_status === 'delivered')).toBe(true);
  });

  it('redelivery since a time queues every failed or undelivered event of the tenant, in order, and only those', async () => {
    const t = suite.current;
    receiver = await WebhookReceiver.start();
    const tenant = await t.createTenant({ webhookUrl: receiver.url });
    const other = await t.createTenant();
    const delivered = await ping(tenant);
    await t.deliverWebhooks();
    const start = await t.advance(60);
    // Three events fail their first attempt and wait for a retry; the other tenant's event has no destination.
    receiver.respondWith(503, 503, 503);
    const failing = [await ping(tenant), await ping(tenant), await ping(tenant)];
    const elsewhere = await emit(other);
    await t.deliverWebhooks();
    expect(receiver.received).toHaveLength(4);

    const response = await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/redeliver`, {
      since: start,
    });
    expect(response.statusCode).toBe(202);
    expect(response.json().requeued).toBe(3);
    const queued = await t.db
      .selectFrom('events')
      .select(['event_id', 'attempt_count'])
      .where('delivery_status', '=', 'pending')
      .where('tenant_id', 'in', [tenant.tenantId, other.tenantId])
      .orderBy('next_attempt_at')
      .execute();
    expect(queued).toEqual(failing.map((event_id) => ({ event_id, attempt_count: 0 })));

    // Due now, without waiting for the retry schedule; the delivered event is not sent again.
    await t.deliverWebhooks();
    expect(
      receiver.received
        .slice(4)
        .map((r) => r.envelope.event_id)
        .sort(),
    ).toEqual([...failing].sort());
    expect(receiver.received.filter((r) => r.envelope.event_id === delivered)).toHaveLength(1);
    const stillElsewhere = await t.db
      .selectFrom('events')
      .select('delivery_status')
      .where('event_id', '=', elsewhere)
      .executeTakeFirstOrThrow();
    expect(stillElsewhere.delivery_status).toBe('no_destination');
    const audit = await t.backoffice('GET', `/tenants/${tenant.tenantId}/audit-log`);
    expect(audit.json().entries[0]).toMatchObject({
      action: 'webhook.redeliver_since',
      details: { requeued: 3 },
    });
  });

  it('refuses a bad since, an unknown tenant, and a tenant without a destination', async () => {
    const t = suite.current;
    receiver = await WebhookReceiver.start();
    const tenant = await t.createTenant();
    const bad = await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/redeliver`, {
      since: 'yesterday',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'invalid_request', request_id: expect.any(String) });
    const none = await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/redeliver`, {
      since: await t.advance(0),
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('invalid_webhook_url');
    const unknown = await t.backoffice('POST', '/tenants/ten_nope/webhook/enable');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('tenant_not_found');
  });
});
