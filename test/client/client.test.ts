import type * as Client from '@compliance-service/client';
import fs from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, clientTypes } from '../../scripts/client-types.js';
import { apiRoutes } from '../helpers/route-table.js';
import { useSuite } from '../helpers/suite.js';
import { TenantDriver } from '../helpers/tenant-driver.js';
import { temporaryDirectory } from '../helpers/temporary-directory.js';
import { installPackedClient } from './packed-client.js';

/** The one tenant route the client leaves out: the retired single-step embed, which only ever answers 410. */
const RETIRED = ['POST /v1/exclusions/embed'];

/** What an operator's backend sent and got back, as its fetch saw it. */
interface Exchange {
  method: string;
  path: string;
  status: number;
  retryAfter: string | null;
}

// The packed client, installed in a fresh project, against a real service listening on a port: an operator's view.
describe('the typed client, packed and installed', () => {
  const suite = useSuite(async (own) => {
    const packed = own(await installPackedClient());
    // No sanctions lists at all: a tenant cut over to production screening gets 503 vendor_unavailable.
    const emptyLists = own(temporaryDirectory('client-no-lists-'));
    const d = own(await TenantDriver.start({ config: { sanctionsDataDir: emptyLists.path } }));
    const baseUrl = await d.t.listen();
    const connect = (apiKey: string, options: Client.RetryOptions = {}) => {
      const exchanges: Exchange[] = [];
      const client = packed.client.createComplianceClient({
        baseUrl,
        apiKey,
        ...options,
        fetch: async (request) => {
          const response = await fetch(request);
          const { pathname } = new URL(request.url);
          const retryAfter = response.headers.get('retry-after');
          exchanges.push({ method: request.method, path: pathname, status: response.status, retryAfter });
          return response;
        },
      });
      return { client, exchanges };
    };
    return { ...packed, d, connect };
  });

  it("has types generated from the service's OpenAPI document as it is now (else: npm run client:generate)", async () => {
    const { d } = suite.current;
    const generated = await clientTypes(d.t.service.app.swagger());
    const committed = fs.readFileSync(CLIENT_TYPES_FILE, 'utf8');
    expect(
      generated === committed,
      'packages/client/src/generated/api.ts is stale: npm run client:generate',
    ).toBe(true);
  });

  it('ships its build, types and README only', () => {
    const { files } = suite.current;
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('README.md');
    expect(files.filter((file) => file.startsWith('src/'))).toEqual([]);
  });

  it('calls every tenant endpoint of the service, each answering 2xx', async () => {
    const { d, connect } = suite.current;
    const { client, exchanges } = connect(d.tenant.apiKey);
    const now = () => d.now();
    const user = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}`;

    const excluded = user('excluded');
    const exclusion = await client.exclusions.create({
      user_id: excluded,
      duration: 'duration_30d',
      email: `${excluded}@example.com`,
    });
    expect(exclusion).toMatchObject({ user_id: excluded, duration: 'duration_30d', is_permanent: false });
    expect(await client.exclusions.check({ email: `${excluded}@example.com` })).toMatchObject({
      is_excluded: true,
      exclusion_id: exclusion.exclusion_id,
    });
    const batch = await client.exclusions.checkBatch({
      contacts: [{ reference: excluded, email: `${excluded}@example.com` }],
    });
    expect(batch.results[0]).toMatchObject({ reference: excluded, is_excluded: true });
    const snapshot = await client.exclusions.snapshot({ limit: 10 });
    expect(snapshot.exclusions.map((row) => row.exclusion_id)).toContain(exclusion.exclusion_id);

    const player = user('player');
    const limit = await client.limits.set({
      user_id: player,
      limit_type: 'limit_daily',
      amount_cents: 10_000,
      currency: 'USD',
      requested_at: now(),
    });
    expect(limit).toMatchObject({ user_id: player, amount_cents: 10_000, status: 'active' });
    const listed = await client.limits.list({ user_id: player });
    expect(listed.limits.map((l) => l.limit_id)).toContain(limit.limit_id);
    expect(
      await client.limits.check({ user_id: player, amount_cents: 2_500, currency: 'USD' }),
    ).toMatchObject({
      allowed: true,
      amount_cents: 2_500,
    });
    const committed = await client.limits.commit({
      user_id: player,
      transaction_id: 'dep-1',
      amount_cents: 2_500,
      currency: 'USD',
      committed_at: now(),
    });
    expect(committed).toMatchObject({ transaction_id: 'dep-1' });
    await client.limits.check({ user_id: player, amount_cents: 1_000, currency: 'USD' });
    expect(
      await client.limits.release({
        user_id: player,
        transaction_id: 'dep-2',
        amount_cents: 1_000,
        currency: 'USD',
      }),
    ).toMatchObject({ transaction_id: 'dep-2' });
    expect(
      await client.limits.wagerCheck({ user_id: player, amount_cents: 500, currency: 'USD' }),
    ).toMatchObject({
      allowed: true,
    });
    const increase = await client.limits.set({
      user_id: player,
      limit_type: 'limit_daily',
      amount_cents: 15_000,
      currency: 'USD',
      requested_at: now(),
    });
    expect(increase).toMatchObject({ status: 'pending', is_increase: true, cooloff_seconds: 86_400 });
    expect(await client.limits.cancel(increase.limit_id)).toMatchObject({ status: 'cancelled' });

    const session = await client.playSessions.start({
      user_id: player,
      session_id: 'session-1',
      started_at: now(),
    });
    expect(session).toMatchObject({ session_id: 'session-1' });
    expect(await client.playSessions.get('session-1')).toMatchObject({ session_id: 'session-1' });
    expect(await client.playSessions.end('session-1', { ended_at: now() })).toMatchObject({
      session_id: 'session-1',
    });
    expect(await client.players.setRealityCheck(player, { interval_seconds: 1800 })).toMatchObject({
      user_id: player,
    });
    const timeOut = await client.timeOuts.take({ user_id: player, duration: 'duration_24h' });
    expect(timeOut).toMatchObject({ user_id: player, duration: 'duration_24h' });
    expect((await client.timeOuts.list({ user_id: player })).time_outs[0]).toMatchObject({
      time_out_id: timeOut.time_out_id,
    });
    expect(await client.players.status(player)).toMatchObject({ user_id: player });
    const interaction = await client.players.recordInteraction(player, {
      kind: 'call',
      outcome: 'no_concern',
      occurred_at: now(),
    });
    expect(interaction).toMatchObject({ user_id: player, outcome: 'no_concern' });
    expect((await client.players.saferGambling(player)).interactions).toEqual([interaction]);
    expect(await client.players.closed(player, { closed_at: now() })).toMatchObject({ user_id: player });
    const erased = `${player}-erased`;
    await client.players.setRealityCheck(erased, { interval_seconds: 1800 });
    const erasure = await client.players.requestErasure(erased, { erasure_request_id: 'dsr-1' });
    expect(erasure).toMatchObject({ user_id: erased, status: 'completed' });
    expect(await client.players.erasureRequest(erased, 'dsr-1')).toEqual(erasure);
    expect((await client.players.erasureRequests(erased)).erasure_requests).toEqual([erasure]);

    const kyc = await client.kyc.start({
      user_id: player,
      email: 'player@example.com',
      phone: '+15555550100',
      withdrawal_amount_cents: 50_000,
      currency: 'USD',
      withdrawal_id: 'wd-1',
    });
    expect(kyc).toMatchObject({ user_id: player, required_tier: 'tier_1', withdrawal_held: true });
    expect(await client.kyc.status({ kyc_check_id: kyc.kyc_check_id! })).toMatchObject({
      status: 'not_started',
    });
    const admin = connect(await d.t.issueKey(d.tenant.tenantId, 'admin'));
    expect(
      await admin.client.kyc.manualReview({
        kyc_check_id: kyc.kyc_check_id!,
        decision: 'approve',
        reason: 'documents checked by hand',
      }),
    ).toMatchObject({ status: 'approved' });
    exchanges.push(...admin.exchanges);
    expect(await client.kyc.tier({ user_id: player })).toMatchObject({ verified_tier: 'tier_1' });
    expect(
      await client.kyc.withdrawalCompleted({
        user_id: player,
        withdrawal_id: 'wd-1',
        amount_cents: 50_000,
        currency: 'USD',
        completed_at: now(),
      }),
    ).toMatchObject({ withdrawal_id: 'wd-1' });

    const screened = await client.sanctions.screen({
      user_id: player,
      first_name: 'Ada',
      last_name: 'Lovelace',
      date_of_birth: '1985-12-10',
      nationality: 'GB',
      email: 'ada@example.com',
    });
    expect(screened).toMatchObject({ user_id: player, status: 'clear' });
    expect(await client.sanctions.status({ user_id: player })).toMatchObject({ status: 'clear' });

    expect(await client.geo.check({ ip_address: '81.2.69.142', context: 'signup' })).toMatchObject({
      country_code: 'GB',
    });
    expect((await client.geo.countries()).countries.length).toBeGreaterThan(100);

    expect(
      await client.aml.event({
        user_id: player,
        event_type: 'deposit',
        transaction_id: 'aml-1',
        amount_cents: 2_500,
        currency: 'USD',
        occurred_at: now(),
      }),
    ).toMatchObject({ transaction_id: 'aml-1' });
    expect(
      await client.aml.screen({
        user_id: player,
        withdrawal_id: 'wd-big',
        amount_cents: 1_000_000,
        currency: 'USD',
        payment_method: 'bank_transfer',
        destination_country: 'GB',
      }),
    ).toHaveProperty('decision');
    expect(await client.aml.cases({ user_id: player })).toMatchObject({ user_id: player });

    expect(await client.embeds.createSession({ kind: 'deposit_limits', user_id: player })).toHaveProperty(
      'url',
    );
    expect((await client.events.list({})).events.length).toBeGreaterThan(0);
    expect(await client.health.live()).toMatchObject({ status: 'ok' });
    expect(await client.health.ready()).toMatchObject({ status: 'ready' });

    expect(exchanges.filter((e) => e.status >= 300)).toEqual([]);
    // Every tenant route the app registers (a new one fails here until the client has a method for it).
    const called = exchanges.map((e) => `${e.method} ${e.path}`);
    const tenantRoutes = apiRoutes(d.t.service.app)
      .filter((route) => route.surface === 'tenant')
      .map((route) => `${route.method} ${route.url}`)
      .filter((route) => !RETIRED.includes(route));
    const uncalled = tenantRoutes.filter((route) => {
      const pattern = new RegExp(`^${route.replace(/:[A-Za-z_]+/g, '[^/]+')}$`);
      return !called.some((call) => pattern.test(call));
    });
    expect(uncalled).toEqual([]);
  });

  it('throws ComplianceServiceError with the status, code, message and request id, and retries nothing else', async () => {
    const { d, connect, client: packed } = suite.current;
    const { client, exchanges } = connect(d.tenant.apiKey);
    const refused = await client.limits
      .set({
        user_id: 'p',
        limit_type: 'limit_daily',
        amount_cents: -5,
        currency: 'USD',
        requested_at: d.now(),
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(packed.ComplianceServiceError);
    expect(refused).toMatchObject({ status: 400, error: 'invalid_amount', name: 'ComplianceServiceError' });
    const { message, request_id } = refused as InstanceType<typeof packed.ComplianceServiceError>;
    expect(message).toEqual(expect.any(String));
    expect(request_id).toMatch(/^req_/);
    expect(exchanges).toHaveLength(1);

    const badKey = connect('svc_sk_test_notakeynotakeynotakeynotakeynotak');
    await expect(badKey.client.geo.countries()).rejects.toMatchObject({
      status: 401,
      error: 'invalid_credentials',
    });
    expect(badKey.exchanges).toHaveLength(1);
  });

  it("retries a 429 after the service's Retry-After, then answers", async () => {
    const { d, connect } = suite.current;
    const tenant = await d.otherTenant();
    const limits = (perMinute: number) =>
      d.t.backoffice('PUT', `/tenants/${tenant.tenant.tenantId}/rate-limits`, {
        default_per_minute: perMinute,
      });
    expect((await limits(1)).statusCode).toBe(200);
    const waits: number[] = [];
    // The wait stands in for time passing: the budget is raised instead of sleeping out the minute.
    const sleep = async (ms: number) => {
      waits.push(ms);
      await limits(100);
    };
    const { client, exchanges } = connect(tenant.tenant.apiKey, { sleep });

    await client.kyc.tier({ user_id: 'first' });
    expect(await client.kyc.tier({ user_id: 'second' })).toMatchObject({ user_id: 'second' });
    expect(exchanges.map((e) => e.status)).toEqual([200, 429, 200]);
    expect(waits).toEqual([Number(exchanges[1]!.retryAfter) * 1000]);
    expect(Number(exchanges[1]!.retryAfter)).toBeGreaterThan(0);
  });

  it("retries the spec's retryable 503 with backoff, then throws it", async () => {
    const { d, connect } = suite.current;
    const live = await d.otherTenant({ environment: 'live' });
    const cutover = await d.t.backoffice('PUT', `/tenants/${live.tenant.tenantId}/cutover`, {
      areas: ['sanctions'],
    });
    expect(cutover.statusCode).toBe(200);
    const waits: number[] = [];
    const { client, exchanges } = connect(live.tenant.apiKey, {
      retries: 2,
      baseDelayMs: 100,
      sleep: async (ms) => void waits.push(ms),
    });
    await expect(
      client.sanctions.screen({
        user_id: 'u1',
        first_name: 'Ada',
        last_name: 'Lovelace',
        date_of_birth: '1985-12-10',
        nationality: 'GB',
        email: 'ada@example.com',
      }),
    ).rejects.toMatchObject({ status: 503, error: 'vendor_unavailable' });
    expect(exchanges.map((e) => e.status)).toEqual([503, 503, 503]);
    // Full jitter under an exponential step: the nth wait is under 100 ms × 2ⁿ.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeLessThan(100);
    expect(waits[1]).toBeLessThan(200);
  });

  it('verifies a webhook the service sent into its typed event, and refuses a bad signature or a stale one', async () => {
    const { d, connect, client: packed } = suite.current;
    const { client } = connect(d.tenant.apiKey);
    const userId = `hooked-${Math.random().toString(36).slice(2, 8)}`;
    const created = await client.exclusions.create({
      user_id: userId,
      duration: 'duration_7d',
      phone: '+14155552671',
    });
    await d.t.deliverWebhooks();
    const delivery = d.receiver.received.find(
      (r) =>
        r.envelope.event === 'exclusion.created' && r.envelope.data.exclusion_id === created.exclusion_id,
    )!;
    expect(delivery).toBeDefined();

    const event = packed.verifyWebhook(delivery.body, delivery.headers, d.tenant.signingSecret);
    if (event.event !== 'exclusion.created') throw new Error(`unexpected ${event.event}`);
    // Narrowed by its name: data is exclusion.created's.
    expect(event.data).toEqual({
      exclusion_id: created.exclusion_id,
      user_email: null,
      user_phone: '+14155552671',
      duration: 'duration_7d',
      is_permanent: false,
      expires_at: created.expires_at,
      source: 'operator',
    });

    const tampered = delivery.body.replace('duration_7d', 'duration_1y');
    expect(() => packed.verifyWebhook(tampered, delivery.headers, d.tenant.signingSecret)).toThrow(
      packed.WebhookVerificationError,
    );
    const otherSecret = `whsec_${Buffer.from('another tenant secret 32 bytes!!').toString('base64')}`;
    expect(() => packed.verifyWebhook(delivery.body, delivery.headers, otherSecret)).toThrow(
      packed.WebhookVerificationError,
    );

    // Signed correctly, six minutes ago: a replay.
    const sixMinutesAgo = new Date(Date.now() - 6 * 60_000);
    const id = delivery.headers['webhook-id'] as string;
    const stale = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(sixMinutesAgo.getTime() / 1000)),
      'webhook-signature': new Webhook(d.tenant.signingSecret).sign(id, sixMinutesAgo, delivery.body),
    };
    expect(() => packed.verifyWebhook(delivery.body, stale, d.tenant.signingSecret)).toThrow(/too old/);
  });

  it('verifies with either secret while a rotated-out one still signs', async () => {
    const { d, connect, client: packed } = suite.current;
    const tenant = await d.otherTenant();
    const rotated = await d.t.backoffice(
      'POST',
      `/tenants/${tenant.tenant.tenantId}/signing-secret/rotate`,
      {},
    );
    expect(rotated.statusCode).toBe(200);
    const newSecret = rotated.json<{ signing_secret: string }>().signing_secret;
    const { client } = connect(tenant.tenant.apiKey);
    await client.limits.set({
      user_id: 'rotating',
      limit_type: 'limit_weekly',
      amount_cents: 5_000,
      currency: 'EUR',
      requested_at: d.now(),
    });
    await d.t.deliverWebhooks();
    const [delivery] = tenant.receiver.received;
    expect(delivery).toBeDefined();
    for (const secret of [tenant.tenant.signingSecret, newSecret, [newSecret, tenant.tenant.signingSecret]]) {
      expect(packed.verifyWebhook(delivery!.body, delivery!.headers, secret)).toMatchObject({
        event: 'limit.created',
        data: { user_id: 'rotating', limit_type: 'limit_weekly', amount_cents: 5_000 },
      });
    }
  });
});
