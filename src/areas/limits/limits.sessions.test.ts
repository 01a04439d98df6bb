import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY, HOUR, MINUTE } from '../../../test/helpers/units.js';
import { LimitsDriver } from './limits.test-support.js';

/** Play sessions through HTTP on the test clock: refusals, ends_at and its webhook, the end, and the reality check. */
describe('play sessions', () => {
  const suite = useSuite(() => LimitsDriver.start(), { eachTest: (h) => h.newUser() });

  /** A session of `minutes` played from now, ended, and the clock moved past it. */
  async function play(h: LimitsDriver, sessionId: string, minutes: number) {
    expect((await h.startSession(sessionId)).json()).toMatchObject({ allowed: true });
    await h.t.advance(minutes * MINUTE);
    expect((await h.endSession(sessionId)).statusCode).toBe(200);
  }

  it('a session that starts with 10 minutes of daily play time left ends at ends_at with play_session.limit_reached', async () => {
    const h = suite.current;
    expect((await h.setKindLimit('play_time', HOUR)).statusCode).toBe(201);
    await play(h, 'first', 50);

    const response = await h.startSession('second');
    expect(response.statusCode).toBe(201);
    const session = {
      session_id: 'second',
      user_id: h.userId,
      started_at: h.now(),
      ended_at: null,
      allowed: true,
      ends_at: h.at(10 * MINUTE),
      reality_check_interval_seconds: 3600,
      next_reality_check_at: h.at(HOUR),
    };
    expect(response.json()).toEqual(session);

    await h.t.advance(10 * MINUTE - 1);
    expect(await h.webhooks('play_session.limit_reached')).toEqual([]);
    await h.t.advance(1);
    const reached = await h.webhooks('play_session.limit_reached');
    expect(reached.map((e) => [e.timestamp, e.data])).toEqual([
      [
        session.ends_at,
        { session_id: 'second', user_id: h.userId, limit_type: 'limit_daily', reached_at: session.ends_at },
      ],
    ]);
    // Once: more time, a late end and a read send nothing more.
    await h.t.advance(HOUR);
    expect((await h.endSession('second')).statusCode).toBe(200);
    expect(await h.webhooks('play_session.limit_reached')).toHaveLength(1);
  });

  it('a session ended before its ends_at sends no play_session.limit_reached', async () => {
    const h = suite.current;
    await h.setKindLimit('play_time', 15 * MINUTE, 'limit_session');
    const started = (await h.startSession('short')).json();
    expect(started.ends_at).toBe(h.at(15 * MINUTE));
    await h.t.advance(5 * MINUTE);
    expect((await h.endSession('short')).json()).toMatchObject({
      ended_at: h.now(),
      ends_at: started.ends_at,
    });
    await h.t.advance(HOUR);
    expect(await h.webhooks('play_session.limit_reached')).toEqual([]);
  });

  it('a play_time limit lowered during a session moves its ends_at and play_session.limit_reached; the end of a parallel session moves it later', async () => {
    const h = suite.current;
    await h.setKindLimit('play_time', 2 * HOUR);
    expect((await h.startSession('running')).json()).toMatchObject({ ends_at: h.at(2 * HOUR) });
    await h.t.advance(20 * MINUTE);

    // Lowered to 30 minutes a day after 20 minutes played: 10 minutes more, then the event.
    expect((await h.setKindLimit('play_time', 30 * MINUTE)).statusCode).toBe(201);
    expect((await h.session('running')).json()).toMatchObject({ ends_at: h.at(10 * MINUTE) });

    // A second session at once counts the first as running on: together they reach 30 minutes in 5.
    expect((await h.startSession('parallel')).json()).toMatchObject({ ends_at: h.at(5 * MINUTE) });
    await h.t.advance(2 * MINUTE);
    expect((await h.endSession('parallel')).statusCode).toBe(200);
    // 22 + 2 played: 6 minutes left for the one still running.
    expect((await h.session('running')).json()).toMatchObject({ ends_at: h.at(6 * MINUTE) });
    await h.t.advance(6 * MINUTE);
    const reached = await h.webhooks('play_session.limit_reached');
    expect(reached.map((e) => e.data)).toEqual([
      { session_id: 'running', user_id: h.userId, limit_type: 'limit_daily', reached_at: h.now() },
    ]);

    // Another player lowers a limit below what they have already played: the event is due at once.
    await h.newUser();
    await h.setKindLimit('play_time', 2 * HOUR);
    expect((await h.startSession('third')).json()).toMatchObject({ allowed: true });
    await h.t.advance(10 * MINUTE);
    await h.setKindLimit('play_time', 5 * MINUTE);
    expect((await h.session('third')).json()).toMatchObject({ ends_at: h.now() });
    await h.t.advance(1);
    expect((await h.webhooks('play_session.limit_reached')).map((e) => e.data.session_id)).toEqual(['third']);
  });

  it('a time-out, a self-exclusion of this tenant or an exhausted play_time limit refuses a session, with the reason', async () => {
    const h = suite.current;
    const refused = (reason: string, sessionId: string) => ({
      session_id: sessionId,
      user_id: h.userId,
      started_at: h.now(),
      ended_at: null,
      allowed: false,
      reason,
      ends_at: null,
      reality_check_interval_seconds: 3600,
      next_reality_check_at: null,
    });

    // An exhausted daily limit.
    await h.setKindLimit('play_time', 5 * MINUTE);
    await play(h, 'used-up', 5);
    const exhausted = await h.startSession('after-limit');
    expect([exhausted.statusCode, exhausted.json()]).toEqual([
      201,
      refused('play_time_exhausted', 'after-limit'),
    ]);

    // A time-out is stronger than the limit.
    expect(
      (await h.api('POST', '/v1/time-outs', { user_id: h.userId, duration: 'duration_24h' })).statusCode,
    ).toBe(201);
    expect((await h.startSession('during-break')).json()).toEqual(refused('timed_out', 'during-break'));

    // A self-exclusion is stronger still.
    const exclusion = await h.api('POST', '/v1/exclusions', {
      user_id: h.userId,
      duration: 'duration_30d',
      email: `${h.userId}@example.com`,
    });
    expect(exclusion.statusCode).toBe(201);
    expect((await h.startSession('while-excluded')).json()).toEqual(
      refused('self_excluded', 'while-excluded'),
    );

    // A refused session counts no time, and its repeat answers the same refusal.
    const listed = (await h.list('play_time')).json().limits;
    expect(listed).toMatchObject([{ limit_type: 'limit_daily', spent_seconds: 300, remaining_seconds: 0 }]);
    const again = await h.api('POST', '/v1/play-sessions', {
      user_id: h.userId,
      session_id: 'after-limit',
      started_at: exhausted.json().started_at,
    });
    expect([again.statusCode, again.json()]).toEqual([200, exhausted.json()]);
    const read = (await h.session('after-limit')).json();
    expect(read).toMatchObject({ allowed: false, reason: 'play_time_exhausted', elapsed_seconds: 0 });
  });

  it("another tenant's time-out or exclusion of the same user_id refuses nothing here", async () => {
    const h = suite.current;
    const other = await h.otherTenant();
    await other.api('POST', '/v1/time-outs', { user_id: h.userId, duration: 'duration_24h' });
    const response = await h.startSession('mine');
    expect(response.json()).toMatchObject({ allowed: true, ends_at: null });
  });

  it('is idempotent on (tenant, session_id): a repeat is 200 with the stored session; another player or start is 409', async () => {
    const h = suite.current;
    const first = await h.startSession('s-1');
    expect(first.statusCode).toBe(201);
    await h.t.advance(MINUTE);
    const again = await h.api('POST', '/v1/play-sessions', {
      user_id: h.userId,
      session_id: 's-1',
      started_at: first.json().started_at,
    });
    expect([again.statusCode, again.json()]).toEqual([200, first.json()]);

    const otherPlayer = await h.api('POST', '/v1/play-sessions', {
      user_id: 'someone-else',
      session_id: 's-1',
      started_at: first.json().started_at,
    });
    expect([otherPlayer.statusCode, otherPlayer.json().error]).toEqual([409, 'duplicate_session']);
    const otherStart = await h.startSession('s-1');
    expect([otherStart.statusCode, otherStart.json().error]).toEqual([409, 'duplicate_session']);

    // The same session_id at another tenant is that tenant's own session.
    const other = await h.otherTenant();
    other.userId = h.userId;
    expect((await other.startSession('s-1')).statusCode).toBe(201);
  });

  it('end: 200 with ended_at, the same end again 200, another 409, before the start 422, unknown 404', async () => {
    const h = suite.current;
    const started = (await h.startSession('to-end')).json();
    const early = await h.endSession('to-end', h.at(-MINUTE));
    expect([early.statusCode, early.json().error]).toEqual([422, 'ended_before_start']);

    await h.t.advance(20 * MINUTE);
    const ended = await h.endSession('to-end');
    expect([ended.statusCode, ended.json()]).toEqual([
      200,
      { ...started, ended_at: h.now(), next_reality_check_at: null },
    ]);
    await h.t.advance(MINUTE);
    const repeat = await h.endSession('to-end', ended.json().ended_at);
    expect([repeat.statusCode, repeat.json()]).toEqual([200, ended.json()]);
    const other = await h.endSession('to-end');
    expect([other.statusCode, other.json().error]).toEqual([409, 'session_already_ended']);

    // Its time stops at the end.
    expect((await h.session('to-end')).json().elapsed_seconds).toBe(20 * MINUTE);
    for (const response of [await h.endSession('unknown'), await h.session('unknown')]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        error: 'play_session_not_found',
        message: expect.any(String),
        request_id: expect.any(String),
      });
    }
  });

  it('a session never ended stops counting 24 hours after its start', async () => {
    const h = suite.current;
    await h.setKindLimit('play_time', 2 * DAY, 'limit_weekly');
    await h.startSession('forgotten');
    await h.t.advance(30 * HOUR);
    expect((await h.session('forgotten')).json()).toMatchObject({
      ended_at: null,
      elapsed_seconds: DAY,
      next_reality_check_at: null,
    });
    expect((await h.list('play_time')).json().limits).toMatchObject([
      { limit_type: 'limit_weekly', spent_seconds: DAY, remaining_seconds: DAY },
    ]);
  });

  it("GET counts the stakes and payouts of the events carrying this session's id, not others', failed ones excluded", async () => {
    const h = suite.current;
    await h.startSession('table-7');
    await h.amlEvent('wager', 1_000, { session_id: 'table-7' });
    await h.amlEvent('settlement', 400, { session_id: 'table-7' });
    await h.amlEvent('wager', 5_000, { session_id: 'table-7', status: 'failed' });
    await h.amlEvent('wager', 700, { session_id: 'table-8' });
    await h.amlEvent('wager', 900);
    await h.t.advance(25 * MINUTE);
    const response = await h.session('table-7');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      session_id: 'table-7',
      user_id: h.userId,
      started_at: h.at(-25 * MINUTE),
      ended_at: null,
      allowed: true,
      ends_at: null,
      reality_check_interval_seconds: 3600,
      next_reality_check_at: h.at(35 * MINUTE),
      elapsed_seconds: 25 * MINUTE,
      stakes_cents: 1_000,
      payouts_cents: 400,
      net_cents: -600,
      currency: 'USD',
    });
    // A session with no events yet has nothing and no currency.
    await h.startSession('empty');
    expect((await h.session('empty')).json()).toMatchObject({
      stakes_cents: 0,
      payouts_cents: 0,
      net_cents: 0,
      currency: null,
    });
  });

  it('a rolling window gives time back as old play leaves it; the listing shows spent seconds', async () => {
    const h = suite.current;
    await h.setKindLimit('play_time', HOUR);
    await play(h, 'morning', 60);
    expect((await h.startSession('too-soon')).json()).toMatchObject({
      allowed: false,
      reason: 'play_time_exhausted',
    });
    await h.t.advance(HOUR);
    expect((await h.list('play_time')).json().limits).toEqual([
      expect.objectContaining({
        limit_kind: 'play_time',
        limit_type: 'limit_daily',
        amount_seconds: HOUR,
        status: 'active',
        spent_seconds: HOUR,
        remaining_seconds: 0,
        next_reset_at: h.at(DAY - 2 * HOUR),
      }),
    ]);

    // 30 minutes after the morning's start has left the window, 30 minutes are back.
    await h.t.advance(DAY - 2 * HOUR + 30 * MINUTE);
    expect((await h.list('all')).json().limits).toMatchObject([
      { limit_kind: 'play_time', spent_seconds: 30 * MINUTE, remaining_seconds: 30 * MINUTE },
    ]);
    const back = await h.startSession('evening');
    expect(back.json()).toMatchObject({ allowed: true, ends_at: h.at(HOUR) });
  });

  it('PUT /v1/players/{user_id}/reality-check: 300..7200 or null for the tenant default, which the back office sets', async () => {
    const h = suite.current;
    for (const interval_seconds of [299, 7201, 600.5, '900']) {
      const bad = await h.api('PUT', `/v1/players/${h.userId}/reality-check`, { interval_seconds });
      expect([interval_seconds, bad.statusCode, bad.json().error]).toEqual([
        interval_seconds,
        400,
        'invalid_request',
      ]);
    }
    const set = await h.setRealityCheck(900);
    expect([set.statusCode, set.json()]).toEqual([
      200,
      { user_id: h.userId, interval_seconds: 900, reality_check_interval_seconds: 900 },
    ]);
    expect((await h.startSession('with-900')).json()).toMatchObject({
      reality_check_interval_seconds: 900,
      next_reality_check_at: h.at(900),
    });

    // The tenant's default, set by the staff; null for the player falls back to it.
    const path = `/tenants/${h.tenant.tenantId}/reality-check`;
    expect((await h.t.backoffice('GET', path)).json()).toEqual({
      tenant_id: h.tenant.tenantId,
      interval_seconds: null,
      reality_check_interval_seconds: 3600,
    });
    const tenantDefault = await h.t.backoffice('PUT', path, { interval_seconds: 1800 });
    expect([tenantDefault.statusCode, tenantDefault.json()]).toEqual([
      200,
      { tenant_id: h.tenant.tenantId, interval_seconds: 1800, reality_check_interval_seconds: 1800 },
    ]);
    expect((await h.setRealityCheck(null)).json()).toEqual({
      user_id: h.userId,
      interval_seconds: null,
      reality_check_interval_seconds: 1800,
    });
    expect((await h.startSession('with-default')).json()).toMatchObject({
      reality_check_interval_seconds: 1800,
    });
    // A session keeps the interval it started with.
    expect((await h.session('with-900')).json().reality_check_interval_seconds).toBe(900);

    expect((await h.t.backoffice('PUT', path, { interval_seconds: 7201 })).statusCode).toBe(400);
    expect(
      (await h.t.backoffice('PUT', '/tenants/ten_missing/reality-check', { interval_seconds: 600 }))
        .statusCode,
    ).toBe(404);
    expect((await h.t.backoffice('PUT', path, { interval_seconds: null })).json()).toMatchObject({
      interval_seconds: null,
      reality_check_interval_seconds: 3600,
    });
    const audit = await h.t.backoffice('GET', `/tenants/${h.tenant.tenantId}/audit-log`);
    expect(
      audit
        .json<{ entries: { action: string; details: unknown }[] }>()
        .entries.filter((e) => e.action === 'reality_check.default_changed')
        .map((e) => e.details),
    ).toEqual([{ interval_seconds: null }, { interval_seconds: 1800 }]);
  });
});
