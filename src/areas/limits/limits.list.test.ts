import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { LimitsDriver } from './limits.test-support.js';
import { DAY, HOUR } from '../../../test/helpers/units.js';

/** Deposits recorded, a user's limits listed, one currency per user, tenants kept apart, the OpenAPI document. */
describe('POST /v1/limits/commit, GET /v1/limits and what every limits route shares', () => {
  const suite = useSuite(() => LimitsDriver.start(), { eachTest: (h) => h.newUser() });

  it('commit is 201, the same deposit again 200 with the original, other details 409 duplicate_transaction', async () => {
    const h = suite.current;
    const first = await h.commit(1_000, { transaction_id: `tx-${h.userId}` });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      transaction_id: `tx-${h.userId}`,
      user_id: h.userId,
      amount_cents: 1_000,
      currency: 'USD',
      committed_at: h.now(),
      recorded_at: h.now(),
    });
    const again = await h.commit(1_000, { transaction_id: `tx-${h.userId}` });
    expect([again.statusCode, again.json()]).toEqual([200, first.json()]);
    const different = await h.commit(2_000, { transaction_id: `tx-${h.userId}` });
    expect([different.statusCode, different.json().error]).toEqual([409, 'duplicate_transaction']);
  });

  it('lists limits with spend, held, remaining, next reset and pending change', async () => {
    const h = suite.current;
    const daily = (await h.setLimit(10_000, 'limit_daily')).json();
    const weekly = (await h.setLimit(50_000, 'limit_weekly')).json();
    await h.commit(2_500);
    await h.t.advance(HOUR);
    const pending = (await h.setLimit(20_000, 'limit_daily')).json();
    // An allowed check holds its amount until its commit: it is not spent, but no longer remains.
    expect((await h.check(1_000)).json().allowed).toBe(true);
    const response = await h.list();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user_id: h.userId,
      limits: [
        {
          ...daily,
          spent_cents: 2_500,
          held_cents: 1_000,
          remaining_cents: 6_500,
          next_reset_at: h.at(DAY - HOUR),
          pending_change: pending,
        },
        {
          ...weekly,
          spent_cents: 2_500,
          held_cents: 1_000,
          remaining_cents: 46_500,
          next_reset_at: h.at(7 * DAY - HOUR),
          pending_change: null,
        },
      ],
    });
    const empty = await h.t.api(h.tenant.apiKey, 'GET', '/v1/limits?user_id=nobody-here');
    expect(empty.json()).toEqual({ user_id: 'nobody-here', limits: [] });
    expect((await h.t.api(h.tenant.apiKey, 'GET', '/v1/limits')).json().error).toBe('invalid_request');
  });

  it('keeps one currency per user: another is 422 currency_mismatch on set, commit and check', async () => {
    const h = suite.current;
    await h.commit(1_000);
    for (const response of [
      await h.setLimit(10_000, 'limit_weekly', { currency: 'EUR' }),
      await h.commit(500, { currency: 'EUR' }),
      await h.check(100, 'EUR'),
    ]) {
      expect([response.statusCode, response.json().error]).toEqual([422, 'currency_mismatch']);
    }
    await h.setLimit(1_000, 'limit_daily');
    const overLimit = await h.check(5_000, 'EUR');
    expect(overLimit.json().error).toBe('currency_mismatch');
    expect(await h.webhooks('limit.breach_attempt')).toEqual([]);
  });

  it("another tenant never sees or is bound by this tenant's limits and deposits", async () => {
    const h = suite.current;
    await h.setLimit(10_000);
    await h.commit(9_000);
    const stranger = await h.t.createTenant();
    const listed = await h.t.api(stranger.apiKey, 'GET', `/v1/limits?user_id=${h.userId}`);
    expect(listed.json().limits).toEqual([]);
    const checked = await h.t.api(stranger.apiKey, 'POST', '/v1/limits/check', {
      user_id: h.userId,
      amount_cents: 50_000,
      currency: 'EUR',
    });
    expect(checked.json()).toMatchObject({ allowed: true, active_limits: [] });
  });

  it('documents every limits route in the OpenAPI document under the limits tag', async () => {
    const h = suite.current;
    const doc = (await h.t.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    for (const [path, method] of [
      ['/v1/limits', 'post'],
      ['/v1/limits', 'get'],
      ['/v1/limits/check', 'post'],
      ['/v1/limits/commit', 'post'],
      ['/v1/limits/{id}', 'delete'],
    ] as const) {
      expect([path, method, doc.paths[path]?.[method]?.tags]).toEqual([path, method, ['limits']]);
    }
  });
});
