import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { RESERVATION_HOLD_SECONDS } from './limits.rules.js';
import { LimitsDriver } from './limits.test-support.js';
import { DAY, HOUR } from '../../../test/helpers/units.js';

/** An allowed check holds its amount until the deposit's commit, its release, or the hold lapsing. */
describe('deposit holds: check, commit, release, lapse', () => {
  const suite = useSuite(() => LimitsDriver.start(), {
    eachTest: async (h) => {
      h.newUser();
      await h.setLimit(10_000, 'limit_daily');
    },
  });

  const holdRows = async () => {
    const h = suite.current;
    return (
      await sql<{ holds: unknown[] }>`select holds from limit_reservations
        where tenant_id = ${h.tenant.tenantId} and user_id = ${h.userId}`.execute(h.t.db)
    ).rows;
  };

  it('three concurrent checks of 8,000 against 10,000 allow exactly one', async () => {
    const h = suite.current;
    const answers = await Promise.all([h.check(8_000), h.check(8_000), h.check(8_000)]);
    const bodies = answers.map((a) => a.json());
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(bodies.filter((b) => b.allowed)).toHaveLength(1);
    // The two rejected see the allowed one's hold as used, and say what still fits.
    expect(bodies.filter((b) => !b.allowed)).toEqual([
      expect.objectContaining({ already_spent_cents: 8_000, max_allowed_now_cents: 2_000 }),
      expect.objectContaining({ already_spent_cents: 8_000, max_allowed_now_cents: 2_000 }),
    ]);
    expect(await h.webhooks('limit.breach_attempt')).toHaveLength(2);
  });

  it('a commit consumes its hold: after check and commit of 8,000, 8,000 is used, not 16,000', async () => {
    const h = suite.current;
    expect((await h.check(8_000)).json().allowed).toBe(true);
    expect((await h.commit(8_000)).statusCode).toBe(201);
    const daily = (await h.list()).json().limits[0];
    expect([daily.spent_cents, daily.held_cents, daily.remaining_cents]).toEqual([8_000, 0, 2_000]);
    expect((await h.check(2_001)).json()).toMatchObject({ allowed: false, already_spent_cents: 8_000 });
    expect((await h.check(2_000)).json()).toMatchObject({ allowed: true, would_remain_cents: 0 });
  });

  it('a commit takes the oldest live hold of its own amount; other holds stay', async () => {
    const h = suite.current;
    await h.check(3_000);
    await h.check(5_000);
    await h.commit(5_000);
    const daily = (await h.list()).json().limits[0];
    expect([daily.spent_cents, daily.held_cents]).toEqual([5_000, 3_000]);
    // A commit of an amount nothing holds consumes nothing: it only counts.
    await h.commit(1_000);
    expect((await h.list()).json().limits[0]).toMatchObject({ spent_cents: 6_000, held_cents: 3_000 });
  });

  it('a hold lapses after 15 minutes on the service clock; a rejection says when it lapses', async () => {
    const h = suite.current;
    expect(RESERVATION_HOLD_SECONDS).toBe(900);
    expect((await h.check(8_000)).json().allowed).toBe(true);
    const lapsesAt = h.at(RESERVATION_HOLD_SECONDS);
    expect((await h.check(8_000)).json()).toMatchObject({
      allowed: false,
      already_spent_cents: 8_000,
      max_allowed_now_cents: 2_000,
      next_reset_at: lapsesAt,
    });
    await h.t.advance(RESERVATION_HOLD_SECONDS - 1);
    expect((await h.check(8_000)).json().allowed).toBe(false);
    await h.t.advance(1);
    expect((await h.check(8_000)).json().allowed).toBe(true);
    // The first hold lapsed and is gone; the commit takes the live one.
    await h.commit(8_000);
    expect((await h.list()).json().limits[0]).toMatchObject({ spent_cents: 8_000, held_cents: 0 });
  });

  it('a release frees the hold at once, and is idempotent on transaction_id', async () => {
    const h = suite.current;
    expect((await h.check(8_000)).json().allowed).toBe(true);
    const released = await h.release('tx-failed-1', 8_000);
    expect([released.statusCode, released.json()]).toEqual([
      201,
      {
        transaction_id: 'tx-failed-1',
        user_id: h.userId,
        amount_cents: 8_000,
        currency: 'USD',
        reservation_released: true,
        released_at: h.now(),
      },
    ]);
    expect((await h.check(8_000)).json().allowed).toBe(true);

    // Again: the original answer, and the new check's hold stays.
    const again = await h.release('tx-failed-1', 8_000);
    expect([again.statusCode, again.json()]).toEqual([200, released.json()]);
    expect((await h.list()).json().limits[0].held_cents).toBe(8_000);
    const other = await h.release('tx-failed-1', 7_000);
    expect([other.statusCode, other.json().error]).toEqual([409, 'duplicate_transaction']);

    // A released transaction that is committed after all counts, but takes no other deposit's hold.
    await h.commit(8_000, { transaction_id: 'tx-failed-1' });
    expect((await h.list()).json().limits[0]).toMatchObject({ spent_cents: 8_000, held_cents: 8_000 });
  });

  it('a release with nothing held is recorded and frees nothing; a committed deposit is not released', async () => {
    const h = suite.current;
    const nothing = await h.release('tx-never-checked', 4_000);
    expect([nothing.statusCode, nothing.json().reservation_released]).toEqual([201, false]);
    await h.check(4_000);
    // The earlier release is remembered: repeating it does not free the new check's hold.
    expect((await h.release('tx-never-checked', 4_000)).statusCode).toBe(200);
    expect((await h.list()).json().limits[0].held_cents).toBe(4_000);

    await h.commit(4_000, { transaction_id: 'tx-went-through' });
    const committed = await h.release('tx-went-through', 4_000);
    expect([committed.statusCode, committed.json().error]).toEqual([409, 'duplicate_transaction']);
    const currency = await h.release('tx-eur', 4_000, { currency: 'EUR' });
    expect([currency.statusCode, currency.json().error]).toEqual([422, 'currency_mismatch']);
    const bad = await h.release('tx-bad', 0);
    expect([bad.statusCode, bad.json().error]).toEqual([400, 'invalid_amount']);
  });

  it('a deposit reported failed to AML (metadata.status failed) frees its hold', async () => {
    const h = suite.current;
    expect((await h.check(8_000)).json().allowed).toBe(true);
    expect((await h.check(8_000)).json().allowed).toBe(false);
    const failed = await h.t.api(h.tenant.apiKey, 'POST', '/v1/aml/event', {
      event_type: 'deposit',
      user_id: h.userId,
      transaction_id: 'tx-aml-failed',
      amount_cents: 8_000,
      currency: 'USD',
      occurred_at: h.t.platform.clock.now().toISOString(),
      metadata: { status: 'failed' },
    });
    expect(failed.statusCode).toBe(202);
    expect((await h.list()).json().limits[0]).toMatchObject({ spent_cents: 0, held_cents: 0 });
    expect((await h.check(8_000)).json().allowed).toBe(true);
  });

  it('holds nothing for a user without limits; lapsed hold rows are deleted by the daily retention job a day after they lapse', async () => {
    const h = suite.current;
    h.newUser();
    expect((await h.check(8_000)).json().allowed).toBe(true);
    expect(await holdRows()).toEqual([]);

    await h.setLimit(10_000, 'limit_daily');
    await h.check(8_000);
    expect(await holdRows()).toHaveLength(1);
    await h.t.advance(RESERVATION_HOLD_SECONDS + DAY - HOUR);
    expect(await holdRows()).toHaveLength(1);
    await h.t.advance(DAY + 2 * HOUR);
    expect(await holdRows()).toEqual([]);
  });
});
