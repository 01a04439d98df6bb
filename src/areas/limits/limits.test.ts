import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestService, type TestTenant } from '../../../test/helpers/test-service.js';
import { WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';

const DAY = 86_400;

describe('deposit limits', () => {
  let t: TestService;
  let receiver: WebhookReceiver;
  let tenant: TestTenant;
  let user = 0;
  let userId: string;

  beforeAll(async () => {
    t = await TestService.start();
    receiver = await WebhookReceiver.start();
    tenant = await t.createTenant({ webhookUrl: receiver.url });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
  beforeEach(() => {
    userId = `player-${++user}`;
  });

  const now = () => t.platform.clock.now().toISOString();
  const setLimit = (amount_cents: number, limit_type = 'limit_daily', extra: object = {}) =>
    t.api(tenant.apiKey, 'POST', '/v1/limits', {
      user_id: userId,
      limit_type,
      amount_cents,
      currency: 'USD',
      requested_at: now(),
      ...extra,
    });
  const commit = (amount_cents: number, transaction_id = `tx-${Math.random()}`) =>
    t.api(tenant.apiKey, 'POST', '/v1/limits/commit', {
      user_id: userId,
      transaction_id,
      amount_cents,
      currency: 'USD',
      committed_at: now(),
    });
  const check = (amount_cents: number) =>
    t.api(tenant.apiKey, 'POST', '/v1/limits/check', { user_id: userId, amount_cents, currency: 'USD' });
  const webhooksFor = async (event: string) => {
    await t.deliverWebhooks();
    return receiver
      .verified(tenant.signingSecret)
      .filter((e) => e.event === event && e.data.user_id === userId);
  };

  it('a first-time limit is in force at once and emits limit.created', async () => {
    const response = await setLimit(10_000);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      limit_id: expect.stringMatching(/^lim_/),
      user_id: userId,
      limit_type: 'limit_daily',
      amount_cents: 10_000,
      currency: 'USD',
      current_limit_cents: null,
      is_increase: false,
      cooloff_seconds: 0,
      effective_from: now(),
      status: 'active',
    });
    const [event] = await webhooksFor('limit.created');
    expect(event?.data).toMatchObject({
      limit_id: response.json().limit_id,
      amount_cents: 10_000,
      limit_type: 'limit_daily',
    });
  });

  it('a decrease is in force at once and emits limit.decreased', async () => {
    await setLimit(10_000);
    const response = await setLimit(5_000);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      amount_cents: 5_000,
      current_limit_cents: 10_000,
      is_increase: false,
      cooloff_seconds: 0,
      status: 'active',
    });
    expect(await webhooksFor('limit.decreased')).toHaveLength(1);
    expect((await check(5_001)).json().allowed).toBe(false);
  });

  it.each([
    [20_000, DAY],
    [20_001, 2 * DAY],
    [50_000, 2 * DAY],
    [50_001, 7 * DAY],
  ])('an increase of 10,000 to %i cools off for %i seconds', async (amount, cooloff) => {
    await setLimit(10_000);
    const response = await setLimit(amount);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      status: 'pending',
      is_increase: true,
      cooloff_seconds: cooloff,
      current_limit_cents: 10_000,
    });
    expect(Date.parse(body.effective_from) - Date.parse(now())).toBe(cooloff * 1000);
  });

  it('a pending increase goes live after exactly its cool-off, not a second before', async () => {
    await setLimit(10_000);
    const pending = (await setLimit(15_000)).json();
    expect((await check(15_000)).json().allowed).toBe(false);

    await t.advance(DAY - 1);
    expect((await check(15_000)).json().allowed).toBe(false);
    expect(await webhooksFor('limit.activated')).toEqual([]);

    await t.advance(1);
    expect((await check(15_000)).json()).toMatchObject({
      allowed: true,
      would_remain_cents: 0,
      active_limits: ['limit_daily'],
    });
    const [activated] = await webhooksFor('limit.activated');
    expect(activated?.data).toMatchObject({
      limit_id: pending.limit_id,
      amount_cents: 15_000,
      status: 'active',
    });
  });

  it('repeats a pending increase with 200 and refuses a different one with 409 pending_change_exists', async () => {
    await setLimit(10_000);
    const first = await setLimit(15_000);
    const again = await setLimit(15_000);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const other = await setLimit(18_000);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('pending_change_exists');
  });

  it('a decrease while an increase is pending cancels the increase', async () => {
    await setLimit(10_000);
    const pending = (await setLimit(15_000)).json();
    const decrease = await setLimit(8_000);
    expect(decrease.statusCode).toBe(201);
    const [cancelled] = await webhooksFor('limit.cancelled');
    expect(cancelled?.data).toMatchObject({ limit_id: pending.limit_id, status: 'cancelled' });
    await t.advance(DAY);
    expect(await webhooksFor('limit.activated')).toEqual([]);
    expect((await check(8_001)).json().allowed).toBe(false);
  });

  it('DELETE cancels a pending increase; anything else is a clear 4xx', async () => {
    const active = (await setLimit(10_000)).json();
    const pending = (await setLimit(12_000)).json();
    const cancelled = await t.api(tenant.apiKey, 'DELETE', `/v1/limits/${pending.limit_id}`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ limit_id: pending.limit_id, status: 'cancelled' });
    expect(await webhooksFor('limit.cancelled')).toHaveLength(1);

    expect((await t.api(tenant.apiKey, 'DELETE', `/v1/limits/${pending.limit_id}`)).json().error).toBe(
      'limit_not_pending',
    );
    expect((await t.api(tenant.apiKey, 'DELETE', `/v1/limits/${active.limit_id}`)).statusCode).toBe(409);
    expect((await t.api(tenant.apiKey, 'DELETE', '/v1/limits/lim_nope')).json().error).toBe(
      'limit_not_found',
    );
    const stranger = await t.createTenant();
    // The same amount as the limit in force changes nothing: 200 with the limit in force.
    expect((await setLimit(10_000)).json()).toMatchObject({ limit_id: active.limit_id, status: 'active' });
    const pendingForeign = (await setLimit(11_000)).json();
    expect((await t.api(stranger.apiKey, 'DELETE', `/v1/limits/${pendingForeign.limit_id}`)).statusCode).toBe(
      404,
    );
  });

  it.each([
    [{ amount_cents: 0 }, 400, 'invalid_amount'],
    [{ amount_cents: -5 }, 400, 'invalid_amount'],
    [{ amount_cents: 10.5 }, 400, 'invalid_amount'],
    [{ amount_cents: '1000' }, 400, 'invalid_amount'],
    [{ limit_type: 'limit_yearly' }, 400, 'unsupported_type'],
    [{ amount_cents: 99 }, 422, 'below_minimum'],
  ])('rejects %j with %i %s and stores nothing', async (change, status, code) => {
    const response = await t.api(tenant.apiKey, 'POST', '/v1/limits', {
      user_id: userId,
      limit_type: 'limit_daily',
      amount_cents: 1000,
      currency: 'USD',
      requested_at: now(),
      ...change,
    });
    expect(response.statusCode).toBe(status);
    expect(response.json().error).toBe(code);
    expect((await t.api(tenant.apiKey, 'GET', `/v1/limits?user_id=${userId}`)).json().limits).toEqual([]);
  });

  it('commit is idempotent on transaction_id', async () => {
    const first = await commit(1_000, 'tx-1-' + userId);
    expect(first.statusCode).toBe(201);
    const again = await commit(1_000, 'tx-1-' + userId);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const different = await commit(2_000, 'tx-1-' + userId);
    expect(different.statusCode).toBe(409);
    expect(different.json().error).toBe('duplicate_transaction');
  });

  it('allows a deposit that fits every limit, and rejects in full one that does not', async () => {
    await setLimit(10_000, 'limit_daily');
    await setLimit(25_000, 'limit_weekly');
    await commit(6_000);
    const allowed = await check(4_000);
    expect(allowed.json()).toEqual({
      allowed: true,
      amount_cents: 4_000,
      would_remain_cents: 0,
      active_limits: ['limit_daily', 'limit_weekly'],
    });

    const rejected = await check(4_001);
    expect(rejected.statusCode).toBe(200);
    const body = rejected.json();
    expect(body).toEqual({
      allowed: false,
      reason: 'exceeds_limit',
      breached_limit_type: 'limit_daily',
      limit_amount_cents: 10_000,
      already_spent_cents: 6_000,
      max_allowed_now_cents: 4_000,
      next_reset_at: new Date(Date.parse(now()) + DAY * 1000).toISOString(),
      user_message: expect.stringContaining('40.00 USD'),
    });
    const [breach] = await webhooksFor('limit.breach_attempt');
    expect(breach?.data).toMatchObject({
      user_id: userId,
      amount_cents: 4_001,
      breached_limit_type: 'limit_daily',
    });
  });

  it('spend falls out of the rolling window, and next_reset_at is when the amount would fit', async () => {
    await setLimit(10_000, 'limit_daily');
    await commit(4_000);
    await t.advance(6 * 3600);
    await commit(5_000);
    const second = Date.parse(now());
    await t.advance(6 * 3600);

    // 9,000 spent: 3,000 fits only once the first deposit (12 h ago) leaves, 12 h from now.
    const rejected = (await check(3_000)).json();
    expect(rejected).toMatchObject({
      allowed: false,
      already_spent_cents: 9_000,
      max_allowed_now_cents: 1_000,
    });
    expect(Date.parse(rejected.next_reset_at) - Date.parse(now())).toBe(12 * 3600 * 1000);
    // 7,000 needs both deposits gone: when the second leaves, 24 h after it.
    expect(Date.parse((await check(7_000)).json().next_reset_at)).toBe(second + DAY * 1000);

    await t.advance(12 * 3600 - 1);
    expect((await check(3_000)).json().allowed).toBe(false);
    await t.advance(1);
    expect((await check(3_000)).json()).toMatchObject({ allowed: true, would_remain_cents: 2_000 });
  });

  it('lists limits with spend, remaining, next reset and pending change', async () => {
    await setLimit(10_000, 'limit_daily');
    await commit(2_500);
    const pending = (await setLimit(20_000, 'limit_daily')).json();
    const response = await t.api(tenant.apiKey, 'GET', `/v1/limits?user_id=${userId}`);
    expect(response.statusCode).toBe(200);
    const [daily] = response.json().limits;
    expect(daily).toMatchObject({
      limit_type: 'limit_daily',
      amount_cents: 10_000,
      status: 'active',
      spent_cents: 2_500,
      remaining_cents: 7_500,
      next_reset_at: new Date(Date.parse(now()) + DAY * 1000).toISOString(),
      pending_change: { limit_id: pending.limit_id, amount_cents: 20_000, status: 'pending' },
    });
  });

  it('keeps one currency per user', async () => {
    await setLimit(10_000);
    const limit = await setLimit(10_000, 'limit_weekly', { currency: 'EUR' });
    expect(limit.statusCode).toBe(422);
    expect(limit.json().error).toBe('currency_mismatch');
    const checked = await t.api(tenant.apiKey, 'POST', '/v1/limits/check', {
      user_id: userId,
      amount_cents: 100,
      currency: 'EUR',
    });
    expect(checked.json().error).toBe('currency_mismatch');
  });

  it("another tenant never sees this tenant's limits", async () => {
    await setLimit(10_000);
    const stranger = await t.createTenant();
    const listed = await t.api(stranger.apiKey, 'GET', `/v1/limits?user_id=${userId}`);
    expect(listed.json().limits).toEqual([]);
    expect(
      (
        await t.api(stranger.apiKey, 'POST', '/v1/limits/check', {
          user_id: userId,
          amount_cents: 50_000,
          currency: 'USD',
        })
      ).json().allowed,
    ).toBe(true);
  });
});
