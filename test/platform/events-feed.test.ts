import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import type { WebhookEnvelope } from '../../src/platform/outbox.js';
import { TenantDriver } from '../helpers/tenant-driver.js';
import type { TestTenant } from '../helpers/test-service.js';

interface FeedPage {
  events: WebhookEnvelope[];
  has_more: boolean;
  next_since: string | null;
}

describe('GET /v1/events: the catch-up feed', () => {
  const suite = useSuite(async (own) => {
    const started = own(await TenantDriver.start());
    return {
      t: started.t,
      receiver: started.receiver,
      tenant: started.tenant,
      other: await started.t.createTenant(),
    };
  });

  const feed = (who: TestTenant, query: string) =>
    suite.current.t.api(who.apiKey, 'GET', `/v1/events${query}`);
  /** Every page from `since` to the end, `limit` at a time. */
  async function walk(who: TestTenant, limit: number, since?: string) {
    const events: WebhookEnvelope[] = [];
    let pages = 0;
    let cursor = since;
    for (;;) {
      const query = `?limit=${limit}${cursor ? `&since=${encodeURIComponent(cursor)}` : ''}`;
      const response = await feed(who, query);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<FeedPage>();
      pages++;
      events.push(...page.events);
      expect(page.next_since).toBe(page.events.at(-1)?.event_id ?? cursor ?? null);
      if (!page.has_more) return { events, pages, last: page.next_since };
      cursor = page.next_since!;
    }
  }

  it('lists every event of the tenant across areas, in order, as its webhooks carried them, and pages to the end', async () => {
    const { t, receiver, tenant } = suite.current;
    const user = `user_${randomBytes(4).toString('hex')}`;
    const excluded = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: user,
      duration: 'duration_30d',
      email: `feed.${randomBytes(4).toString('hex')}@example.com`,
    });
    expect(excluded.statusCode).toBe(201);
    await t.advance(1);
    const limit = await t.api(tenant.apiKey, 'POST', '/v1/limits', {
      user_id: user,
      limit_type: 'limit_daily',
      amount_cents: 50_000,
      currency: 'USD',
      requested_at: t.platform.clock.now().toISOString(),
    });
    expect(limit.statusCode).toBe(201);
    await t.advance(1);
    const country = await t.backoffice('PUT', '/geo/countries/AQ', {
      status: 'restricted',
      reason: 'operator_policy',
    });
    expect(country.statusCode).toBe(200);
    await t.advance(1);
    for (let i = 0; i < 4; i++) {
      expect((await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/ping`)).statusCode).toBe(202);
    }
    await t.deliverWebhooks();

    const { events, pages, last } = await walk(tenant, 2);
    const names = events.map((e) => e.event);
    expect(names).toEqual([
      'exclusion.created',
      'limit.created',
      'geo.country_restricted',
      ...Array(4).fill('ping'),
    ]);
    expect(pages).toBe(4);
    // Oldest first, each event once.
    const times = events.map((e) => Date.parse(e.timestamp));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
    // Exactly the envelopes the webhooks delivered, nothing more.
    const delivered = new Map(
      receiver.received.map((r) => [r.envelope.event_id, JSON.parse(r.body) as unknown]),
    );
    expect(delivered.size).toBe(events.length);
    for (const event of events) expect(event).toEqual(delivered.get(event.event_id));

    // Polling again from the end finds nothing new, and keeps the cursor.
    const again = await feed(tenant, `?since=${last}`);
    expect(again.json()).toEqual({ events: [], has_more: false, next_since: last });
    // A new event appears after the cursor.
    await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/ping`);
    const next = (await feed(tenant, `?since=${last}`)).json<FeedPage>();
    expect(next.events.map((e) => e.event)).toEqual(['ping']);

    // A timestamp starts at the events produced at or after it.
    const fromLimit = await walk(tenant, 100, events[1]!.timestamp);
    expect(fromLimit.events.map((e) => e.event_id)).toEqual([
      ...events.slice(1).map((e) => e.event_id),
      next.events[0]!.event_id,
    ]);
  });

  it("never shows another tenant's events, nor accepts one as a cursor", async () => {
    const { tenant, other } = suite.current;
    const own = await walk(other, 100);
    // The other tenant has only its own copy of the announcement to every tenant.
    expect(own.events.map((e) => e.event)).toEqual(['geo.country_restricted']);
    const mine = await walk(tenant, 100);
    expect(mine.events.map((e) => e.event_id)).not.toContain(own.events[0]!.event_id);

    const foreign = await feed(other, `?since=${mine.events[0]!.event_id}`);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ error: 'invalid_request', request_id: expect.any(String) });
  });

  it('keeps at least 30 days', async () => {
    const { t, tenant } = suite.current;
    const before = await walk(tenant, 1000);
    await t.advance(31 * 86_400);
    const after = await walk(tenant, 1000);
    // Nothing is gone; what happened meanwhile (the 30-day exclusion expired) follows.
    expect(after.events.slice(0, before.events.length)).toEqual(before.events);
    expect(after.events.slice(before.events.length).map((e) => e.event)).toEqual(['exclusion.expired']);
  });

  it.each([
    ['since=yesterday'],
    ['since=2026-02-30T00:00:00Z'],
    ['since=evt_nothex'],
    [`since=evt_${'0'.repeat(32)}`],
    ['limit=0'],
    ['limit=1001'],
    ['limit=ten'],
  ])('refuses %s with 400 in the error shape', async (query) => {
    const { tenant } = suite.current;
    const response = await feed(tenant, `?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_request',
      message: expect.any(String),
      request_id: expect.any(String),
    });
  });

  it('needs an API key and draws on the default rate-limit bucket', async () => {
    const { t, tenant } = suite.current;
    expect((await t.inject({ method: 'GET', url: '/v1/events' })).statusCode).toBe(401);
    const response = await feed(tenant, '');
    expect(response.headers['ratelimit-limit']).toBe('100');
  });
});
