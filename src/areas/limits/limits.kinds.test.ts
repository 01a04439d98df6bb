import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY } from '../../../test/helpers/units.js';
import { LimitsDriver } from './limits.test-support.js';

/** Loss, wager and play_time limits share the deposit limit's lifecycle; a deposit limit is exactly the spec's. */
describe('POST /v1/limits with limit_kind', () => {
  const suite = useSuite(() => LimitsDriver.start(), { eachTest: (h) => h.newUser() });

  it('a deposit-limit integration written against the spec sees byte-for-byte the same fields', async () => {
    const h = suite.current;
    const response = await h.setLimit(10_000);
    const record = response.json();
    // Key order and fields exactly as the spec's Deposit limit record.
    expect(response.body).toBe(
      JSON.stringify({
        limit_id: record.limit_id,
        user_id: h.userId,
        limit_type: 'limit_daily',
        amount_cents: 10_000,
        currency: 'USD',
        current_limit_cents: null,
        is_increase: false,
        cooloff_seconds: 0,
        effective_from: h.now(),
        status: 'active',
      }),
    );
    const [created] = await h.webhooks('limit.created');
    expect(JSON.stringify(created!.data)).toBe(response.body);
    const listed = (await h.list()).json();
    expect(Object.keys(listed.limits[0])).toEqual([
      ...Object.keys(record),
      'spent_cents',
      'held_cents',
      'remaining_cents',
      'next_reset_at',
      'pending_change',
    ]);
  });

  it('a loss limit is set at once with limit_kind, and limit.created carries it', async () => {
    const h = suite.current;
    const response = await h.setKindLimit('loss', 5_000, 'limit_weekly');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      limit_id: expect.stringMatching(/^lim_/),
      user_id: h.userId,
      limit_kind: 'loss',
      limit_type: 'limit_weekly',
      amount_cents: 5_000,
      currency: 'USD',
      current_limit_cents: null,
      is_increase: false,
      cooloff_seconds: 0,
      effective_from: h.now(),
      status: 'active',
    });
    expect((await h.webhooks('limit.created')).map((e) => e.data)).toEqual([response.json()]);
  });

  it('an increase of a play_time limit waits its cooling-off, then limit.activated', async () => {
    const h = suite.current;
    const first = await h.setKindLimit('play_time', 3_600);
    expect(first.json()).toMatchObject({
      limit_kind: 'play_time',
      amount_seconds: 3_600,
      current_limit_seconds: null,
    });
    expect(first.json()).not.toHaveProperty('amount_cents');
    expect(first.json()).not.toHaveProperty('currency');
    const increase = await h.setKindLimit('play_time', 7_200);
    expect(increase.statusCode).toBe(201);
    expect(increase.json()).toMatchObject({
      amount_seconds: 7_200,
      current_limit_seconds: 3_600,
      is_increase: true,
      cooloff_seconds: DAY,
      status: 'pending',
      effective_from: h.at(DAY),
    });
    // Idempotent while pending; another increase is 409.
    expect((await h.setKindLimit('play_time', 7_200)).statusCode).toBe(200);
    expect((await h.setKindLimit('play_time', 9_000)).json().error).toBe('pending_change_exists');
    const pendingList = (await h.list('play_time')).json().limits;
    expect(pendingList).toMatchObject([{ amount_seconds: 3_600, pending_change: { amount_seconds: 7_200 } }]);
    await h.t.advance(DAY);
    await h.t.deliverWebhooks();
    expect((await h.webhooks('limit.activated')).map((e) => e.data)).toMatchObject([
      { limit_kind: 'play_time', amount_seconds: 7_200, status: 'active' },
    ]);
    expect((await h.list('play_time')).json().limits).toMatchObject([
      { amount_seconds: 7_200, pending_change: null },
    ]);
  });

  it('a deposit limit and a loss limit of the same window are separate limits', async () => {
    const h = suite.current;
    await h.setLimit(10_000);
    await h.setKindLimit('loss', 2_000);
    await h.setKindLimit('wager', 50_000);
    await h.amlEvent('wager', 1_500);
    expect((await h.list()).json().limits).toMatchObject([{ amount_cents: 10_000 }]);
    expect((await h.list()).json().limits).toHaveLength(1);
    const all = (await h.list('all')).json().limits;
    expect(all).toMatchObject([
      { amount_cents: 10_000, spent_cents: 0 },
      {
        limit_kind: 'loss',
        spent_cents: 1_500,
        held_cents: 0,
        remaining_cents: 500,
        next_reset_at: h.at(DAY),
      },
      { limit_kind: 'wager', spent_cents: 1_500, remaining_cents: 48_500 },
    ]);
    expect(all[0]).not.toHaveProperty('limit_kind');
    // Deposits still count toward the deposit limit only.
    expect((await h.check(10_000)).json().allowed).toBe(true);
  });

  it.each([
    [
      'limit_session for a money kind',
      { limit_kind: 'loss', limit_type: 'limit_session', amount_cents: 500, currency: 'USD' },
      400,
      'unsupported_type',
    ],
    [
      'an unknown kind',
      { limit_kind: 'bonus', limit_type: 'limit_daily', amount_cents: 500, currency: 'USD' },
      400,
      'unsupported_type',
    ],
    [
      'seconds for a money kind',
      { limit_kind: 'wager', limit_type: 'limit_daily', amount_seconds: 500 },
      400,
      'invalid_request',
    ],
    [
      'cents for play_time',
      { limit_kind: 'play_time', limit_type: 'limit_daily', amount_cents: 500, currency: 'USD' },
      400,
      'invalid_request',
    ],
    [
      'no amount for play_time',
      { limit_kind: 'play_time', limit_type: 'limit_daily' },
      400,
      'invalid_amount',
    ],
    [
      'under 300 seconds',
      { limit_kind: 'play_time', limit_type: 'limit_session', amount_seconds: 299 },
      422,
      'below_minimum',
    ],
    [
      'under 100 minor units',
      { limit_kind: 'loss', limit_type: 'limit_daily', amount_cents: 99, currency: 'USD' },
      422,
      'below_minimum',
    ],
  ])('%s is %i %s and stores nothing', async (_, body, status, error) => {
    const h = suite.current;
    const response = await h.api('POST', '/v1/limits', { user_id: h.userId, requested_at: h.now(), ...body });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error, message: expect.any(String), request_id: expect.any(String) });
    expect((await h.list('all')).json().limits).toEqual([]);
  });

  it('a session limit of play time is set with limit_session', async () => {
    const h = suite.current;
    const response = await h.setKindLimit('play_time', 1_800, 'limit_session');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      limit_kind: 'play_time',
      limit_type: 'limit_session',
      amount_seconds: 1_800,
    });
  });
});
