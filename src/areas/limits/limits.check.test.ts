import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { checkDeposit } from './index.js';
import { limitsCheckGroupCommit } from './service/check-deposit.js';
import { LimitsDriver } from './limits.test-support.js';
import { DAY, HOUR } from '../../../test/helpers/units.js';

/**
 * The check's verb on a platform whose database handle (same pool) counts every statement, built or precompiled:
 * the check groups its statements in the platform's group commit, so a platform of its own, with its own group
 * commit on that handle, counts them.
 */
async function counted(h: LimitsDriver) {
  const db = h.t.db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => args.result,
  });
  const sent = vi.spyOn(db.getExecutor(), 'executeQuery');
  const tenant = await h.t.db
    .selectFrom('tenants')
    .selectAll()
    .where('tenant_id', '=', h.tenant.tenantId)
    .executeTakeFirstOrThrow();
  const ctx = {
    tenant,
    tenantId: tenant.tenant_id,
    keyId: 'key_test',
    keyPrefix: 'svc_sk_test_',
    actor: 'svc_sk_test_',
    role: 'standard' as const,
    requestId: 'req_test',
    db,
    clock: h.t.platform.clock,
  };
  const { config, groupCommits } = h.t.platform;
  const limitsCheck = limitsCheckGroupCommit(db, config);
  return { platform: { ...h.t.platform, db, groupCommits: { ...groupCommits, limitsCheck } }, ctx, sent, db };
}

/** The pre-deposit gate over the deposits it sums: what a tenant sees before every deposit. */
describe('POST /v1/limits/check', () => {
  const suite = useSuite(() => LimitsDriver.start(), { eachTest: (h) => h.newUser() });

  it('allows a deposit that fits every limit with exactly the allowed fields, and no event', async () => {
    const h = suite.current;
    await h.setLimit(10_000, 'limit_daily');
    await h.setLimit(25_000, 'limit_weekly');
    await h.commit(6_000);
    const allowed = await h.check(4_000);
    expect([allowed.statusCode, allowed.json()]).toEqual([
      200,
      {
        allowed: true,
        amount_cents: 4_000,
        would_remain_cents: 0,
        active_limits: ['limit_daily', 'limit_weekly'],
      },
    ]);
    expect(await h.webhooks('limit.breach_attempt')).toEqual([]);
  });

  it('allows any amount for a user without limits, with would_remain_cents null', async () => {
    const h = suite.current;
    expect((await h.check(5_000_000)).json()).toEqual({
      allowed: true,
      amount_cents: 5_000_000,
      would_remain_cents: null,
      active_limits: [],
    });
  });

  it('rejects in full with exactly the rejected fields and emits limit.breach_attempt', async () => {
    const h = suite.current;
    const daily = (await h.setLimit(10_000, 'limit_daily')).json();
    await h.commit(6_000);
    const rejected = await h.check(4_001);
    expect(rejected.statusCode).toBe(200);
    const nextResetAt = h.at(DAY);
    expect(rejected.json()).toEqual({
      allowed: false,
      reason: 'exceeds_limit',
      breached_limit_type: 'limit_daily',
      limit_amount_cents: 10_000,
      already_spent_cents: 6_000,
      max_allowed_now_cents: 4_000,
      next_reset_at: nextResetAt,
      user_message:
        'This deposit of 40.01 USD would exceed your daily deposit limit of 100.00 USD. ' +
        `You can deposit up to 40.00 USD now, or this amount from ${nextResetAt.slice(0, 16).replace('T', ' ')} UTC.`,
    });
    const breaches = await h.webhooks('limit.breach_attempt');
    expect(breaches).toEqual([
      {
        event: 'limit.breach_attempt',
        event_id: expect.stringMatching(/^evt_/),
        timestamp: h.now(),
        data: {
          user_id: h.userId,
          amount_cents: 4_001,
          currency: 'USD',
          limit_id: daily.limit_id,
          breached_limit_type: 'limit_daily',
          limit_amount_cents: 10_000,
          already_spent_cents: 6_000,
          max_allowed_now_cents: 4_000,
          next_reset_at: nextResetAt,
        },
      },
    ]);
  });

  it('spend falls out of the rolling window; next_reset_at is the earliest time the amount fits', async () => {
    const h = suite.current;
    await h.setLimit(10_000, 'limit_daily');
    await h.commit(4_000);
    await h.t.advance(6 * HOUR);
    await h.commit(5_000);
    const secondLeaves = h.at(DAY);
    await h.t.advance(6 * HOUR);

    // 9,000 spent: 3,000 fits once the first deposit (12 h ago) leaves, 12 h from now.
    expect((await h.check(3_000)).json()).toMatchObject({
      allowed: false,
      already_spent_cents: 9_000,
      max_allowed_now_cents: 1_000,
      next_reset_at: h.at(12 * HOUR),
    });
    // 7,000 needs both deposits gone: when the second leaves, 24 h after it.
    expect((await h.check(7_000)).json().next_reset_at).toBe(secondLeaves);

    await h.t.advance(12 * HOUR - 1);
    expect((await h.check(3_000)).json().allowed).toBe(false);
    await h.t.advance(1);
    expect((await h.check(3_000)).json()).toMatchObject({ allowed: true, would_remain_cents: 2_000 });
    await h.t.advance(6 * HOUR);
    expect((await h.check(10_000)).json()).toMatchObject({ allowed: true, would_remain_cents: 0 });
  });

  it('with several limits breached, names the one that frees up last and when all of them fit', async () => {
    const h = suite.current;
    await h.setLimit(10_000, 'limit_daily');
    await h.setLimit(15_000, 'limit_weekly');
    await h.commit(8_000);
    const firstLeavesWeek = h.at(7 * DAY);
    await h.t.advance(DAY);
    await h.commit(6_000);
    // Daily: 6,000 spent, 5,000 fits in 24 h. Weekly: 14,000 spent, 5,000 fits when the 8,000 leaves in 6 days.
    expect((await h.check(5_000)).json()).toMatchObject({
      allowed: false,
      breached_limit_type: 'limit_weekly',
      limit_amount_cents: 15_000,
      already_spent_cents: 14_000,
      max_allowed_now_cents: 1_000,
      next_reset_at: firstLeavesWeek,
    });
    await h.t.advance(6 * DAY - 1);
    expect((await h.check(5_000)).json().allowed).toBe(false);
    await h.t.advance(1);
    // Weekly now holds only the 6,000: 15,000 - 6,000 - 5,000 remain under it, the least of the two.
    expect((await h.check(5_000)).json()).toMatchObject({ allowed: true, would_remain_cents: 4_000 });
  });

  it('an amount above the limit itself never fits: it binds, and next_reset_at is when the spend next falls', async () => {
    const h = suite.current;
    await h.setLimit(10_000, 'limit_daily');
    await h.commit(2_000);
    const body = (await h.check(12_000)).json();
    expect(body).toMatchObject({
      allowed: false,
      breached_limit_type: 'limit_daily',
      max_allowed_now_cents: 8_000,
      next_reset_at: h.at(DAY),
    });
    expect(body.user_message).toBe(
      'This deposit of 120.00 USD is more than your daily deposit limit of 100.00 USD. You can deposit up to 80.00 USD now.',
    );
  });

  it('checks in one database round trip, allowed (with its hold) or rejected, whatever the history length', async () => {
    const h = suite.current;
    await h.setLimit(1_000_000, 'limit_daily');
    await h.setLimit(2_000_000, 'limit_weekly');
    await h.setLimit(3_000_000, 'limit_monthly');
    await sql`insert into deposits (tenant_id, transaction_id, user_id, amount_cents, currency, committed_at,
        recorded_at, request_hash)
      select ${h.tenant.tenantId}, 'bulk-' || n, ${h.userId}, 100, 'USD',
        ${h.t.platform.clock.now()}::timestamptz - make_interval(secs => n * 60), now(), 'bulk'
      from generate_series(1, 5000) as n`.execute(h.t.db);
    // One a minute: 1,439 of them (143,900) are in the last 24 hours.
    const { platform, ctx, sent, db } = await counted(h);
    const transaction = vi.spyOn(db, 'transaction');
    const connection = vi.spyOn(db, 'connection');

    const allowed = await checkDeposit(platform, ctx, {
      user_id: h.userId,
      amount_cents: 100,
      currency: 'USD',
    });
    expect([allowed.allowed, sent.mock.calls.length]).toEqual([true, 1]);
    const rejected = await checkDeposit(platform, ctx, {
      user_id: h.userId,
      amount_cents: 900_000,
      currency: 'USD',
    });
    // Spent counts the 100 the allowed check holds.
    expect([rejected.allowed, rejected.already_spent_cents, sent.mock.calls.length]).toEqual([
      false,
      144_000,
      2,
    ]);
    expect(transaction).not.toHaveBeenCalled();
    expect(connection).not.toHaveBeenCalled();
    expect(await h.webhooks('limit.breach_attempt')).toHaveLength(1);
  });

  it('checks of many players arriving together share one statement, and each player gets its own answer', async () => {
    const h = suite.current;
    // Player k has spent k × 1,000 of a daily 10,000 and asks twice, at once, for 5,000; one player has no limit.
    const players = Array.from({ length: 8 }, (_, k) => ({ k, userId: h.newUser() }));
    for (const { k, userId } of players) {
      h.userId = userId;
      await h.setLimit(10_000, 'limit_daily');
      if (k > 0) await h.commit(k * 1_000);
    }
    const asked = [...players.map((p) => p.userId), h.newUser()];
    const { platform, ctx, sent } = await counted(h);
    const checks = [...asked, ...asked];
    const answers = await Promise.all(
      checks.map((user_id) => checkDeposit(platform, ctx, { user_id, amount_cents: 5_000, currency: 'USD' })),
    );

    const allowed = (userId: string) => answers.filter((a, i) => checks[i] === userId && a.allowed).length;
    // Both fit for the player who spent nothing, one for those with room for one, none past 5,000 spent, and both
    // for the player without a limit.
    expect(asked.map(allowed)).toEqual([2, 1, 1, 1, 1, 1, 0, 0, 2]);
    // The first check goes alone; the others, waiting meanwhile, share the next statements, a player's second
    // check in a later one than its first (PGlite: one in flight; PostgreSQL: two).
    expect(sent.mock.calls.length).toBeLessThanOrEqual(4);
    // Each rejection's event names its own player and what that player had spent and held.
    h.userId = players[6]!.userId;
    expect((await h.webhooks('limit.breach_attempt')).map((e) => e.data.already_spent_cents)).toEqual([
      6_000, 6_000,
    ]);
    h.userId = players[3]!.userId;
    expect((await h.webhooks('limit.breach_attempt')).map((e) => e.data.already_spent_cents)).toEqual([
      8_000,
    ]);
  });

  it.each([
    [{ amount_cents: 0 }, 'invalid_amount'],
    [{ amount_cents: 1.5 }, 'invalid_amount'],
    [{ currency: 'dollars' }, 'invalid_request'],
    [{ user_id: '' }, 'invalid_request'],
  ])('check rejects %j with 400 %s', async (change, code) => {
    const h = suite.current;
    const response = await h.t.api(h.tenant.apiKey, 'POST', '/v1/limits/check', {
      user_id: h.userId,
      amount_cents: 100,
      currency: 'USD',
      ...change,
    });
    expect([response.statusCode, response.json().error]).toEqual([400, code]);
  });
});
