import { afterEach, describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { emitEvent } from '../../src/platform/outbox.js';
import {
  MAX_ATTEMPTS,
  RETRY_JITTER,
  RETRY_SCHEDULE_SECONDS,
  WebhookDispatcher,
} from '../../src/platform/webhooks/dispatcher.js';
import { TestService, type TestTenant } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

describe('outbox and webhook delivery', () => {
  const suite = useSuite(() => TestService.start());
  let receiver: WebhookReceiver;
  let tenant: TestTenant;
  afterEach(() => receiver.close());

  async function freshTenant() {
    const t = suite.current;
    receiver = await WebhookReceiver.start();
    tenant = await t.createTenant({ webhookUrl: receiver.url });
  }

  const emit = () => {
    const t = suite.current;
    return t.db.transaction().execute((tx) =>
      emitEvent(tx, {
        tenantIds: tenant.tenantId,
        event: 'ping',
        data: { tenant_id: tenant.tenantId },
        at: t.platform.clock.now(),
      }),
    );
  };

  it('delivers a ping signed per Standard Webhooks, verified by the standardwebhooks package', async () => {
    const t = suite.current;
    await freshTenant();
    const ping = await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/ping`);
    expect(ping.statusCode).toBe(202);
    const { event_id } = ping.json<{ event_id: string }>();

    await t.deliverWebhooks();

    expect(receiver.received).toHaveLength(1);
    const [verified] = receiver.verified(tenant.signingSecret);
    expect(verified).toEqual({
      event: 'ping',
      event_id,
      timestamp: expect.any(String),
      data: { tenant_id: tenant.tenantId },
    });
    expect(event_id).toMatch(/^evt_/);
    const headers = receiver.received[0]!.headers;
    expect(headers['webhook-id']).toBe(event_id);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(() => receiver.verified('whsec_' + Buffer.alloc(32, 1).toString('base64'))).toThrow();

    const deliveries = await t.backoffice('GET', `/tenants/${tenant.tenantId}/webhook-deliveries`);
    expect(deliveries.json().deliveries[0]).toMatchObject({
      event_id,
      delivery_status: 'delivered',
      attempt_count: 1,
      attempts: [{ attempt_number: 1, status_code: 200, outcome: 'delivered', error: null }],
    });
  });

  it('an outbox write in a transaction that fails emits no event', async () => {
    const t = suite.current;
    await freshTenant();
    await expect(
      t.db.transaction().execute(async (tx) => {
        await emitEvent(tx, {
          tenantIds: tenant.tenantId,
          event: 'ping',
          data: { tenant_id: tenant.tenantId },
          at: t.platform.clock.now(),
        });
        throw new Error('state change failed');
      }),
    ).rejects.toThrow('state change failed');
    const stored = await t.db
      .selectFrom('events')
      .selectAll()
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    expect(stored).toEqual([]);
    await t.deliverWebhooks();
    expect(receiver.received).toEqual([]);
  });

  it('retries a failing endpoint on the backoff schedule, then marks the event failed', async () => {
    const t = suite.current;
    await freshTenant();
    receiver.respondWith(...Array<number>(MAX_ATTEMPTS).fill(503));
    const [envelope] = await emit();
    await t.deliverWebhooks();
    expect(receiver.received).toHaveLength(1);

    for (const [index, delay] of RETRY_SCHEDULE_SECONDS.entries()) {
      // Not a moment early: just under the scheduled delay nothing is sent.
      await t.advance(delay - 1);
      await t.deliverWebhooks();
      expect(receiver.received).toHaveLength(index + 1);
      // Within the jitter window past the delay, the retry goes out.
      await t.advance(Math.ceil(delay * RETRY_JITTER) + 1);
      await t.deliverWebhooks();
      expect(receiver.received).toHaveLength(index + 2);
    }
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(
      new Set([envelope!.event_id]),
    );

    const event = await t.db
      .selectFrom('events')
      .selectAll()
      .where('event_id', '=', envelope!.event_id)
      .executeTakeFirstOrThrow();
    expect(event.delivery_status).toBe('failed');
    await t.advance(86_400);
    await t.deliverWebhooks();
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);

    const log = await t.backoffice('GET', `/tenants/${tenant.tenantId}/webhook-deliveries`);
    const attempts = log.json().deliveries[0].attempts as { outcome: string; status_code: number }[];
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    expect(attempts.at(-1)).toMatchObject({ outcome: 'failed', status_code: 503 });
    expect(attempts.slice(0, -1).every((a) => a.outcome === 'retry_scheduled')).toBe(true);

    // The destination delivered nothing over the whole schedule: it is disabled until the staff enable it.
    expect(
      (await t.backoffice('GET', `/tenants/${tenant.tenantId}`)).json().webhook_disabled_at,
    ).not.toBeNull();
    // Staff enable it after the tenant fixed its endpoint; the event is queued again.
    const enabled = await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/enable`);
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().requeued).toBe(1);
    await t.deliverWebhooks();
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS + 1);
    const after = await t.db
      .selectFrom('events')
      .select('delivery_status')
      .where('event_id', '=', envelope!.event_id)
      .executeTakeFirstOrThrow();
    expect(after.delivery_status).toBe('delivered');
  });

  it('two dispatchers on one database deliver each event exactly once', async () => {
    const t = suite.current;
    await freshTenant();
    const envelopes = await t.db.transaction().execute(async (tx) => {
      const all = [];
      for (let i = 0; i < 40; i++) {
        all.push(
          ...(await emitEvent(tx, {
            tenantIds: tenant.tenantId,
            event: 'ping',
            data: { tenant_id: tenant.tenantId },
            at: t.platform.clock.now(),
          })),
        );
      }
      return all;
    });
    const policy = { allowPrivate: true };
    const { db, clock, log, secrets } = t.platform;
    const first = new WebhookDispatcher(db, clock, policy, log, secrets);
    const second = new WebhookDispatcher(db, clock, policy, log, secrets);
    await Promise.all([first.drain(), second.drain()]);
    await Promise.all([first.close(), second.close()]);

    const ids = receiver.received.map((r) => r.envelope.event_id).sort();
    expect(ids).toEqual(envelopes.map((e) => e.event_id).sort());
    const attempts = await t.db
      .selectFrom('webhook_attempts')
      .select('event_id')
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    expect(attempts).toHaveLength(40);
  });

  it('keeps events for a tenant without a destination as no_destination', async () => {
    const t = suite.current;
    receiver = await WebhookReceiver.start();
    tenant = await t.createTenant();
    const [envelope] = await emit();
    await t.deliverWebhooks();
    const row = await t.db
      .selectFrom('events')
      .select('delivery_status')
      .where('event_id', '=', envelope!.event_id)
      .executeTakeFirstOrThrow();
    expect(row.delivery_status).toBe('no_destination');
  });
});

describe('webhook destinations', () => {
  const suite = useSuite(() => TestService.start({ allowPrivateWebhooks: false }));

  it.each([
    'http://127.0.0.1:9/hook',
    'https://10.0.0.5/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://100.64.0.1/hook',
    'ftp://example.test/hook',
    'not a url',
  ])('refuses %s unless private destinations are allowed', async (url) => {
    const t = suite.current;
    const tenant = await t.createTenant();
    const response = await t.backoffice('PUT', `/tenants/${tenant.tenantId}/webhook`, { url });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_webhook_url');
  });

  it('requires https for live tenants and accepts a public https address', async () => {
    const t = suite.current;
    const live = await t.createTenant({ environment: 'live' });
    const http = await t.backoffice('PUT', `/tenants/${live.tenantId}/webhook`, {
      url: 'http://93.184.215.14/hook',
    });
    expect(http.statusCode).toBe(400);
    const https = await t.backoffice('PUT', `/tenants/${live.tenantId}/webhook`, {
      url: 'https://93.184.215.14/hook',
    });
    expect(https.statusCode).toBe(200);
    expect(https.json().webhook_url).toBe('https://93.184.215.14/hook');
  });

  it('refuses at delivery a stored destination that is not public', async () => {
    const t = suite.current;
    const tenant = await t.createTenant();
    await t.db
      .updateTable('tenants')
      .set({ webhook_url: 'http://127.0.0.1:9/hook' })
      .where('tenant_id', '=', tenant.tenantId)
      .execute();
    const [envelope] = await t.db.transaction().execute((tx) =>
      emitEvent(tx, {
        tenantIds: tenant.tenantId,
        event: 'ping',
        data: { tenant_id: tenant.tenantId },
        at: t.platform.clock.now(),
      }),
    );
    await t.deliverWebhooks();
    const attempt = await t.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('event_id', '=', envelope!.event_id)
      .executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({
      status_code: null,
      error: 'destination address not allowed',
      outcome: 'retry_scheduled',
    });
  });
});
