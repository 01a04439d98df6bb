import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TestService } from '../../../test/helpers/test-service.js';
import { DAY, HOUR } from '../../../test/helpers/units.js';
import { expectRefused, storedRows } from '../../../test/platform/stored-rows.js';
import { activeTimeOut } from './time-outs.store.js';
import { TimeOutsDriver } from './time-outs.test-support.js';

/** POST and GET /v1/time-outs through HTTP on the test clock, with the webhooks the tenant receives. */
describe('time-outs', () => {
  const suite = useSuite(() => TimeOutsDriver.start(), { eachTest: (h) => h.newUser() });

  it.each([
    ['duration_24h', DAY],
    ['duration_7d', 7 * DAY],
    ['duration_30d', 30 * DAY],
    ['duration_6w', 42 * DAY],
  ])('%s: 201 from receipt to %i seconds later, with timeout.started', async (duration, seconds) => {
    const h = suite.current;
    // initiated_at is the player's own moment, kept as context: the break runs from receipt.
    const response = await h.takeTimeOut(duration, { initiated_at: h.at(-60) });
    expect(response.statusCode).toBe(201);
    const record = {
      time_out_id: expect.stringMatching(/^tmo_/),
      user_id: h.userId,
      duration,
      starts_at: h.now(),
      ends_at: h.at(seconds),
    };
    expect(response.json()).toEqual(record);
    const started = await h.webhooks('timeout.started');
    expect(started).toEqual([
      {
        event: 'timeout.started',
        event_id: expect.stringMatching(/^evt_/),
        timestamp: h.now(),
        data: record,
      },
    ]);
    expect(await h.timeOuts()).toEqual([{ ...response.json(), status: 'active', extends_time_out_id: null }]);
  });

  it('the same duration while active is 200 with the original, whenever it comes, and sends nothing', async () => {
    const h = suite.current;
    const first = await h.takeTimeOut('duration_7d');
    await h.t.advance(3 * DAY);
    const again = await h.takeTimeOut('duration_7d', { reason: 'asked again', initiated_at: h.now() });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await h.timeOutEvents()).map(([event]) => event)).toEqual(['timeout.started']);
    expect(await h.timeOuts()).toHaveLength(1);
  });

  it('cannot be shortened: a shorter request is 200 with the time-out in force, ends_at unchanged', async () => {
    const h = suite.current;
    const inForce = (await h.takeTimeOut('duration_30d')).json();
    await h.t.advance(HOUR);
    for (const duration of ['duration_24h', 'duration_7d']) {
      const shorter = await h.takeTimeOut(duration);
      expect([duration, shorter.statusCode, shorter.json()]).toEqual([duration, 200, inForce]);
    }
    expect(await h.timeOuts()).toEqual([{ ...inForce, status: 'active', extends_time_out_id: null }]);
    // Still in force until exactly its ends_at.
    await h.t.advance(30 * DAY - HOUR - 1);
    expect((await h.timeOuts())[0]).toMatchObject({ status: 'active', ends_at: inForce.ends_at });
  });

  it('a longer request extends it: 201 with a new record, the old one superseded, and the end moves', async () => {
    const h = suite.current;
    const first = (await h.takeTimeOut('duration_24h')).json();
    await h.t.advance(12 * HOUR);
    const longer = await h.takeTimeOut('duration_7d');
    expect(longer.statusCode).toBe(201);
    const extended = longer.json();
    expect(extended).toEqual({
      time_out_id: expect.stringMatching(/^tmo_/),
      user_id: h.userId,
      duration: 'duration_7d',
      starts_at: h.now(),
      ends_at: h.at(7 * DAY),
    });
    expect(extended.time_out_id).not.toBe(first.time_out_id);
    expect(await h.timeOuts()).toEqual([
      { ...extended, status: 'active', extends_time_out_id: first.time_out_id },
      { ...first, status: 'superseded', extends_time_out_id: null },
    ]);

    // The old end passes without an event; the new one sends timeout.ended once, at its ends_at.
    await h.t.advance(12 * HOUR);
    expect((await h.timeOutEvents()).map(([event, id]) => [event, id])).toEqual([
      ['timeout.started', first.time_out_id],
      ['timeout.started', extended.time_out_id],
    ]);
    await h.t.advance(7 * DAY - 12 * HOUR - 1);
    expect(await h.webhooks('timeout.ended')).toEqual([]);
    await h.t.advance(1);
    const ended = await h.webhooks('timeout.ended');
    expect(ended.map((e) => [e.timestamp, e.data])).toEqual([[extended.ends_at, extended]]);
    await h.t.advance(60 * DAY);
    expect(await h.webhooks('timeout.ended')).toHaveLength(1);
    expect((await h.timeOuts()).map((t) => t.status)).toEqual(['ended', 'superseded']);
  });

  it('timeout.ended fires exactly once at ends_at; then a new time-out can start', async () => {
    const h = suite.current;
    const first = (await h.takeTimeOut('duration_24h')).json();
    await h.t.advance(DAY - 1);
    expect(await h.webhooks('timeout.ended')).toEqual([]);
    expect((await h.timeOuts())[0]!.status).toBe('active');
    await h.t.advance(1);
    const ended = await h.webhooks('timeout.ended');
    expect(ended.map((e) => [e.timestamp, e.data])).toEqual([[first.ends_at, first]]);
    expect((await h.timeOuts())[0]!.status).toBe('ended');

    // The same duration again is a new break now that the first has ended.
    const next = await h.takeTimeOut('duration_24h');
    expect(next.statusCode).toBe(201);
    expect(next.json()).toMatchObject({ starts_at: h.now(), ends_at: h.at(DAY) });
    expect(next.json().time_out_id).not.toBe(first.time_out_id);
    await h.t.advance(DAY);
    expect((await h.timeOutEvents()).map(([event, id]) => [event, id])).toEqual([
      ['timeout.started', first.time_out_id],
      ['timeout.ended', first.time_out_id],
      ['timeout.started', next.json().time_out_id],
      ['timeout.ended', next.json().time_out_id],
    ]);
  });

  it('a time-out past its end whose job is late has ended: listed so, and a new request starts afresh', async () => {
    const h = suite.current;
    const first = (await h.takeTimeOut('duration_24h')).json();
    const inForce = (at: Date) => activeTimeOut(h.t.db, h.tenant.tenantId, h.userId, at);
    expect(await inForce(new Date(first.ends_at))).toBeUndefined();
    expect((await inForce(new Date(Date.parse(first.ends_at) - 1)))?.time_out_id).toBe(first.time_out_id);
    // Move the clock without running due work, as when the workers are behind.
    await h.t.platform.testClock!.advance(h.t.db, DAY + HOUR);
    expect((await h.timeOuts())[0]).toMatchObject({ time_out_id: first.time_out_id, status: 'ended' });
    // The door's answer for the status call and play sessions: nothing in force, though the row waits for its job.
    expect(await inForce(h.t.platform.clock.now())).toBeUndefined();
    const next = await h.takeTimeOut('duration_24h');
    expect(next.statusCode).toBe(201);
    expect(next.json().time_out_id).not.toBe(first.time_out_id);
    // The late end is sent once, before the new start, stamped when the service learned of it.
    await h.t.advance(0);
    expect((await h.timeOutEvents()).map(([event, id]) => [event, id])).toEqual([
      ['timeout.started', first.time_out_id],
      ['timeout.ended', first.time_out_id],
      ['timeout.started', next.json().time_out_id],
    ]);
    expect((await h.timeOuts()).map((t) => [t.status, t.extends_time_out_id])).toEqual([
      ['active', null],
      ['ended', null],
    ]);
  });

  it("is the tenant's own: another tenant neither sees it, is blocked by it, nor hears of it", async () => {
    const h = suite.current;
    const other = await h.otherTenant();
    other.userId = h.userId;
    const mine = (await h.takeTimeOut('duration_30d')).json();
    expect((await other.list()).json()).toEqual({ user_id: h.userId, time_outs: [] });
    // The same user id at the other tenant is another player: a shorter break there is its own, at once.
    const theirs = await other.takeTimeOut('duration_24h');
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json()).toMatchObject({ duration: 'duration_24h', ends_at: other.at(DAY) });
    expect(theirs.json().time_out_id).not.toBe(mine.time_out_id);
    expect((await h.timeOuts()).map((t) => t.time_out_id)).toEqual([mine.time_out_id]);
    await h.t.advance(DAY);
    expect((await other.timeOutEvents()).map(([event, id]) => [event, id])).toEqual([
      ['timeout.started', theirs.json().time_out_id],
      ['timeout.ended', theirs.json().time_out_id],
    ]);
    expect((await h.timeOutEvents()).map(([event, id]) => [event, id])).toEqual([
      ['timeout.started', mine.time_out_id],
    ]);
  });

  it('bad input is 400 in the error shape, with the duration its own code, and stores nothing', async () => {
    const h = suite.current;
    const before = await storedRows(h.t.db);
    const cases: [object, string][] = [
      [{ duration: 'duration_1y' }, 'unsupported_duration'],
      [{ duration: 'duration_permanent' }, 'unsupported_duration'],
      [{ duration: undefined }, 'unsupported_duration'],
      [{ user_id: '' }, 'invalid_request'],
      [{ user_id: undefined }, 'invalid_request'],
      [{ reason: 'x'.repeat(201) }, 'invalid_request'],
      [{ reason: '' }, 'invalid_request'],
      [{ initiated_at: 'yesterday' }, 'invalid_request'],
      [{ initiated_at: h.at(10 * 60) }, 'invalid_request'],
      [{ shorten: true }, 'invalid_request'],
    ];
    for (const [change, code] of cases) {
      const body = { user_id: h.userId, duration: 'duration_24h', ...change };
      const response = await h.api('POST', '/v1/time-outs', body);
      expectRefused(response, 400, code);
    }
    expectRefused(await h.api('GET', '/v1/time-outs'), 400, 'invalid_request');
    expect(await storedRows(h.t.db)).toEqual(before);
    expect(await h.timeOutEvents()).toEqual([]);
  });
});

describe('time-outs across a restart', () => {
  const suite = useSuite(async (own) => {
    const first = own(await TimeOutsDriver.start());
    first.newUser();
    return first;
  });

  it('the end is stored work: a new process on the same database sends timeout.ended at ends_at', async () => {
    const first = suite.current;
    const taken = (await first.takeTimeOut('duration_7d')).json();
    const kept = await first.t.stop();

    const second = suite.own(await TestService.start({}, kept));
    const h = new TimeOutsDriver(second, first.tenant, first.receiver);
    h.userId = first.userId;
    await second.advance(7 * DAY - 1);
    expect(await h.webhooks('timeout.ended')).toEqual([]);
    await second.advance(1);
    expect((await h.webhooks('timeout.ended')).map((e) => e.data)).toEqual([taken]);
  });
});
