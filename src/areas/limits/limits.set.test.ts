import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { LimitsDriver } from './limits.test-support.js';
import { DAY } from '../../../test/helpers/units.js';

/** The spec's Deposit-limit state table, driven through HTTP and the test clock, with verified webhooks. */
describe('POST /v1/limits and DELETE /v1/limits/{id}', () => {
  const suite = useSuite(() => LimitsDriver.start(), { eachTest: (h) => h.newUser() });

  it('(none) → in force at once: a first-time set is 201 with cooloff_seconds 0 and emits limit.created', async () => {
    const h = suite.current;
    const response = await h.setLimit(10_000);
    expect(response.statusCode).toBe(201);
    const record = {
      limit_id: expect.stringMatching(/^lim_/),
      user_id: h.userId,
      limit_type: 'limit_daily',
      amount_cents: 10_000,
      currency: 'USD',
      current_limit_cents: null,
      is_increase: false,
      cooloff_seconds: 0,
      effective_from: h.now(),
      status: 'active',
    };
    expect(response.json()).toEqual(record);
    const [created] = await h.webhooks('limit.created');
    expect(created).toEqual({
      event: 'limit.created',
      event_id: expect.stringMatching(/^evt_/),
      timestamp: h.now(),
      data: response.json(),
    });
    expect((await h.check(10_000)).json().allowed).toBe(true);
    expect((await h.check(10_001)).json().allowed).toBe(false);
  });

  it('in force → lower: a decrease is in force at once and emits limit.decreased', async () => {
    const h = suite.current;
    const first = (await h.setLimit(10_000)).json();
    const response = await h.setLimit(5_000);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      amount_cents: 5_000,
      current_limit_cents: 10_000,
      is_increase: false,
      cooloff_seconds: 0,
      effective_from: h.now(),
      status: 'active',
    });
    expect((await h.webhooks('limit.decreased')).map((e) => e.data)).toEqual([response.json()]);
    expect((await h.check(5_001)).json().allowed).toBe(false);
    // The replaced limit is no longer pending or cancellable.
    expect((await h.cancel(first.limit_id)).json().error).toBe('limit_not_pending');
  });

  it('in force → pending: an increase emits nothing and leaves the old limit in force', async () => {
    const h = suite.current;
    await h.setLimit(10_000);
    const response = await h.setLimit(15_000);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      is_increase: true,
      current_limit_cents: 10_000,
      cooloff_seconds: DAY,
      effective_from: h.at(DAY),
      status: 'pending',
    });
    expect(await h.eventNames()).toEqual(['limit.created']);
    expect((await h.check(10_001)).json()).toMatchObject({ allowed: false, limit_amount_cents: 10_000 });
  });

  it.each([
    ['up to and including 2x (exactly 2x)', 20_000, DAY],
    ['just above 2x', 20_001, 2 * DAY],
    ['up to and including 5x (exactly 5x)', 50_000, 2 * DAY],
    ['just above 5x', 50_001, 7 * DAY],
    ['far above 5x', 1_000_000, 7 * DAY],
  ])('an increase of 10,000 %s (%i) cools off for %i seconds', async (_name, amount, cooloff) => {
    const h = suite.current;
    await h.setLimit(10_000);
    const response = await h.setLimit(amount);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      amount_cents: amount,
      status: 'pending',
      cooloff_seconds: cooloff,
      effective_from: h.at(cooloff),
    });
  });

  it('pending → live: after exactly its cool-off (not a second before) with limit.activated', async () => {
    const h = suite.current;
    await h.setLimit(10_000);
    const pending = (await h.setLimit(50_000)).json();
    expect(pending.cooloff_seconds).toBe(2 * DAY);

    await h.t.advance(2 * DAY - 1);
    expect((await h.check(50_000)).json().allowed).toBe(false);
    expect(await h.webhooks('limit.activated')).toEqual([]);

    await h.t.advance(1);
    expect((await h.check(50_000)).json()).toEqual({
      allowed: true,
      amount_cents: 50_000,
      would_remain_cents: 0,
      active_limits: ['limit_daily'],
    });
    const activated = await h.webhooks('limit.activated');
    expect(activated.map((e) => [e.timestamp, e.data])).toEqual([
      [pending.effective_from, { ...pending, status: 'active' }],
    ]);
    const [listed] = (await h.list()).json().limits;
    expect(listed).toMatchObject({ limit_id: pending.limit_id, status: 'active', pending_change: null });
  });

  it('pending → live even when the activation job is late: the check and a later change use the new limit', async () => {
    const h = suite.current;
    await h.setLimit(10_000);
    const pending = (await h.setLimit(20_000)).json();
    // Move the clock without running due work, as when the workers are behind.
    await h.t.platform.testClock!.advance(h.t.db, DAY);
    expect((await h.check(20_000)).json().allowed).toBe(true);
    // 15,000 is a decrease from the 20,000 now in force: at once, not a 409 against the stale pending row.
    const lowered = await h.setLimit(15_000);
    expect(lowered.statusCode).toBe(201);
    expect(lowered.json()).toMatchObject({ current_limit_cents: 20_000, status: 'active' });
    expect(await h.eventNames()).toEqual(['limit.activated', 'limit.created', 'limit.decreased']);
    expect((await h.webhooks('limit.activated'))[0]!.data.limit_id).toBe(pending.limit_id);
  });

  it('while pending: the same request is 200 with it, a different one 409 pending_change_exists', async () => {
    const h = suite.current;
    await h.setLimit(10_000);
    const first = await h.setLimit(15_000);
    const again = await h.setLimit(15_000, 'limit_daily', { requested_at: h.at(60) });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    for (const amount of [18_000, 12_000, 10_000]) {
      const other = await h.setLimit(amount);
      expect([amount, other.statusCode, other.json().error]).toEqual([amount, 409, 'pending_change_exists']);
    }
    // Another limit type is another key.
    expect((await h.setLimit(30_000, 'limit_weekly')).statusCode).toBe(201);
  });

  it('without a pending increase, the amount already in force is 200 with the limit in force', async () => {
    const h = suite.current;
    const first = await h.setLimit(10_000);
    const same = await h.setLimit(10_000);
    expect([same.statusCode, same.json()]).toEqual([200, first.json()]);
    expect(await h.eventNames()).toEqual(['limit.created']);
  });

  it('pending → cancelled by a decrease: limit.cancelled and limit.decreased, and it never activates', async () => {
    const h = suite.current;
    await h.setLimit(10_000);
    const pending = (await h.setLimit(15_000)).json();
    const decrease = await h.setLimit(8_000);
    expect(decrease.statusCode).toBe(201);
    expect(decrease.json()).toMatchObject({
      current_limit_cents: 10_000,
      amount_cents: 8_000,
      status: 'active',
    });
    expect((await h.webhooks('limit.cancelled')).map((e) => e.data)).toEqual([
      { ...pending, status: 'cancelled' },
    ]);
    await h.t.advance(DAY);
    expect(await h.eventNames()).toEqual(['limit.cancelled', 'limit.created', 'limit.decreased']);
    expect((await h.check(8_001)).json().allowed).toBe(false);
    expect((await h.list()).json().limits[0].pending_change).toBeNull();
  });

  it('pending → cancelled by DELETE: 200 with the record and limit.cancelled; the old limit stays', async () => {
    const h = suite.current;
    await h.setLimit(10_000);
    const pending = (await h.setLimit(12_000)).json();
    const cancelled = await h.cancel(pending.limit_id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toEqual({ ...pending, status: 'cancelled' });
    expect((await h.webhooks('limit.cancelled')).map((e) => e.data)).toEqual([cancelled.json()]);
    await h.t.advance(DAY);
    expect(await h.webhooks('limit.activated')).toEqual([]);
    expect((await h.check(10_001)).json().allowed).toBe(false);
  });

  it('DELETE of anything but a pending increase is a clear 4xx', async () => {
    const h = suite.current;
    const active = (await h.setLimit(10_000)).json();
    const pending = (await h.setLimit(12_000)).json();
    expect((await h.cancel(pending.limit_id)).statusCode).toBe(200);
    const again = await h.cancel(pending.limit_id);
    expect([again.statusCode, again.json().error]).toEqual([409, 'limit_not_pending']);
    const live = await h.cancel(active.limit_id);
    expect([live.statusCode, live.json().error]).toEqual([409, 'limit_not_pending']);
    const unknown = await h.cancel('lim_nope');
    expect([unknown.statusCode, unknown.json().error]).toEqual([404, 'limit_not_found']);
    const other = (await h.setLimit(11_000)).json();
    const stranger = await h.t.createTenant();
    const foreign = await h.cancel(other.limit_id, stranger.apiKey);
    expect([foreign.statusCode, foreign.json().error]).toEqual([404, 'limit_not_found']);
    expect((await h.list()).json().limits[0].pending_change.limit_id).toBe(other.limit_id);
  });

  it.each([
    [{ amount_cents: 0 }, 400, 'invalid_amount'],
    [{ amount_cents: -5 }, 400, 'invalid_amount'],
    [{ amount_cents: 10.5 }, 400, 'invalid_amount'],
    [{ amount_cents: '1000' }, 400, 'invalid_amount'],
    [{ amount_cents: undefined }, 400, 'invalid_amount'],
    [{ limit_type: 'limit_yearly' }, 400, 'unsupported_type'],
    [{ limit_type: undefined }, 400, 'unsupported_type'],
    [{ currency: 'usd' }, 400, 'invalid_request'],
    [{ requested_at: 'now' }, 400, 'invalid_request'],
    [{ amount_cents: 99 }, 422, 'below_minimum'],
  ])('rejects %j with %i %s and stores nothing', async (change, status, code) => {
    const h = suite.current;
    const response = await h.setLimit(1_000, 'limit_daily', change);
    expect([response.statusCode, response.json().error]).toEqual([status, code]);
    expect((await h.list()).json().limits).toEqual([]);
    expect(await h.eventNames()).toEqual([]);
  });

  it('accepts exactly the minimum of 100 minor units', async () => {
    const h = suite.current;
    expect((await h.setLimit(100)).statusCode).toBe(201);
  });
});
