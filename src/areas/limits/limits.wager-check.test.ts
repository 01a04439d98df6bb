import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY, HOUR } from '../../../test/helpers/units.js';
import { LimitsDriver } from './limits.test-support.js';

/** POST /v1/limits/wager-check: stakes and payouts from the AML events, through HTTP on the test clock. */
describe('POST /v1/limits/wager-check', () => {
  const suite = useSuite(() => LimitsDriver.start(), { eachTest: (h) => h.newUser() });

  it('allows any stake when the player has no loss or wager limit', async () => {
    const h = suite.current;
    const response = await h.wagerCheck(1_000_000);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      allowed: true,
      amount_cents: 1_000_000,
      would_remain_cents: null,
      active_limits: [],
    });
  });

  it("a loss limit's room grows back as a losing stake leaves the window; a win beyond zero net loss adds none", async () => {
    const h = suite.current;
    await h.setKindLimit('loss', 10_000);
    await h.amlEvent('wager', 6_000);
    await h.t.advance(12 * HOUR);
    expect((await h.wagerCheck(4_001)).json()).toMatchObject({
      allowed: false,
      breached_limit_kind: 'loss',
      breached_limit_type: 'limit_daily',
      already_spent_cents: 6_000,
      max_allowed_now_cents: 4_000,
      next_reset_at: h.at(12 * HOUR),
    });
    // A winning settlement brings net loss to zero, and no lower: the room is the whole limit, not more.
    await h.amlEvent('settlement', 20_000);
    expect((await h.wagerCheck(10_001)).json()).toMatchObject({
      allowed: false,
      max_allowed_now_cents: 10_000,
    });
    const allowed = (await h.wagerCheck(4_000)).json();
    expect(allowed).toEqual({
      allowed: true,
      amount_cents: 4_000,
      would_remain_cents: 6_000,
      active_limits: [{ limit_kind: 'loss', limit_type: 'limit_daily' }],
    });
    await h.amlEvent('wager', 4_000);

    // Without the payout: a second player loses 6,000, and the room comes back once the stake is 24 hours old.
    h.newUser();
    await h.setKindLimit('loss', 10_000);
    await h.amlEvent('wager', 6_000);
    expect((await h.wagerCheck(5_000)).json().allowed).toBe(false);
    await h.t.advance(DAY);
    expect((await h.wagerCheck(10_000)).json().allowed).toBe(true);
  });

  it('rejects a stake that fits the wager limit but could breach the loss limit, with breached_limit_kind loss', async () => {
    const h = suite.current;
    await h.setKindLimit('wager', 50_000);
    await h.setKindLimit('loss', 5_000);
    await h.amlEvent('wager', 4_000);
    const response = await h.wagerCheck(2_000);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      allowed: false,
      reason: 'exceeds_limit',
      breached_limit_kind: 'loss',
      breached_limit_type: 'limit_daily',
      limit_amount_cents: 5_000,
      already_spent_cents: 4_000,
      max_allowed_now_cents: 1_000,
      next_reset_at: h.at(DAY),
      user_message: expect.stringContaining('would exceed your daily loss limit of 50.00 USD'),
    });
    const [breach] = await h.webhooks('limit.breach_attempt');
    expect(breach!.data).toEqual({
      user_id: h.userId,
      amount_cents: 2_000,
      currency: 'USD',
      limit_id: expect.stringMatching(/^lim_/),
      limit_kind: 'loss',
      breached_limit_kind: 'loss',
      breached_limit_type: 'limit_daily',
      limit_amount_cents: 5_000,
      already_spent_cents: 4_000,
      max_allowed_now_cents: 1_000,
      next_reset_at: h.at(DAY),
    });
  });

  it('three concurrent checks of 8,000 against a 10,000 wager limit allow exactly one', async () => {
    const h = suite.current;
    await h.setKindLimit('wager', 10_000);
    const results = await Promise.all([h.wagerCheck(8_000), h.wagerCheck(8_000), h.wagerCheck(8_000)]);
    expect(results.map((r) => r.json().allowed).sort()).toEqual([false, false, true]);
    // The hold ends when the stake's wager event arrives: it is counted once, from the event.
    await h.amlEvent('wager', 8_000);
    expect((await h.wagerCheck(2_000)).json()).toMatchObject({ allowed: true, would_remain_cents: 0 });
  });

  it('a hold lapses after two minutes when no wager event follows', async () => {
    const h = suite.current;
    await h.setKindLimit('wager', 10_000);
    expect((await h.wagerCheck(8_000)).json().allowed).toBe(true);
    expect((await h.wagerCheck(8_000)).json().allowed).toBe(false);
    await h.t.advance(120);
    expect((await h.wagerCheck(8_000)).json().allowed).toBe(true);
  });

  it('a failed wager counts for nothing; a pending one counts', async () => {
    const h = suite.current;
    await h.setKindLimit('wager', 10_000);
    await h.amlEvent('wager', 9_000, { status: 'failed' });
    expect((await h.wagerCheck(10_000)).json().allowed).toBe(true);
    h.newUser();
    await h.setKindLimit('wager', 10_000);
    await h.amlEvent('wager', 9_000, { status: 'pending' });
    expect((await h.wagerCheck(1_001)).json()).toMatchObject({
      allowed: false,
      breached_limit_kind: 'wager',
    });
  });

  it('a stake in another currency than the limits is 422 currency_mismatch', async () => {
    const h = suite.current;
    await h.setKindLimit('wager', 10_000);
    const response = await h.wagerCheck(1_000, 'EUR');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: 'currency_mismatch',
      message: expect.any(String),
      request_id: expect.any(String),
    });
  });

  it('bad input is 400 in the error shape and holds nothing', async () => {
    const h = suite.current;
    await h.setKindLimit('wager', 10_000);
    const response = await h.api('POST', '/v1/limits/wager-check', {
      user_id: h.userId,
      amount_cents: -5,
      currency: 'USD',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_amount', request_id: expect.any(String) });
    expect((await h.wagerCheck(10_000)).json().allowed).toBe(true);
  });
});
