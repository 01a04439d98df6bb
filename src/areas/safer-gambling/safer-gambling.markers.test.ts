import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY, HOUR, MINUTE, usd } from '../../../test/helpers/units.js';
import { CATALOGUE_VERSION } from './safer-gambling.markers.js';
import { MarkersDriver } from './safer-gambling.markers.test-support.js';

/** Each marker through HTTP on the test clock (which starts at 2030-01-01T12:00Z): at its threshold, one below, its window. */
describe('Safer-gambling markers', () => {
  const suite = useSuite(() => MarkersDriver.start());

  describe('SG-001 spend escalation: 7 days of deposits at least USD 500 and 3 times the weekly average before', () => {
    /** First event 4 weeks ago: 3 weeks of history before the window, USD 600 in them: an average of USD 200. */
    const history = async (user: string) => {
      const d = suite.current;
      await d.event(user, 'login', 0, { at: -28 * DAY });
      await d.deposit(user, usd(600), -10 * DAY);
    };

    it('trips at 3 times the average, and the tenant receives player.risk_changed', async () => {
      const d = suite.current;
      const user = d.newUser();
      await history(user);
      await d.deposit(user, usd(600));
      const changes = await d.riskChanges(user);
      expect(changes).toEqual([
        {
          user_id: user,
          risk_level: 'medium',
          previous_level: 'none',
          markers: [{ code: 'SG-001', name: 'Spend escalation', tripped_at: d.now() }],
        },
      ]);
      const [trip] = await d.trips(user);
      expect(trip).toMatchObject({
        code: 'SG-001',
        measured_value: usd(600),
        threshold: usd(600),
        catalogue_version: CATALOGUE_VERSION,
      });
      expect(trip!.details).toMatchObject({ weekly_average_usd_cents: usd(200), baseline_weeks: 3 });
    });

    it('does not trip one cent below', async () => {
      const d = suite.current;
      const user = d.newUser();
      await history(user);
      await d.deposit(user, usd(599.99));
      expect(await d.tripped(user)).toEqual([]);
      expect(await d.riskChanges(user)).toEqual([]);
    });

    it('does not count a deposit exactly 7 days old in the window', async () => {
      const d = suite.current;
      const user = d.newUser();
      await history(user);
      await d.deposit(user, usd(300), -7 * DAY);
      await d.deposit(user, usd(599.99));
      expect(await d.tripped(user)).toEqual([]);
    });

    it('needs USD 500 whatever the average', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'login', 0, { at: -28 * DAY });
      await d.deposit(user, usd(499.99));
      expect(await d.tripped(user)).toEqual([]);
      await d.deposit(user, usd(0.01));
      expect(await d.tripped(user)).toEqual(['SG-001']);
    });

    it('does not evaluate a player with under 4 weeks of history', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.event(user, 'login', 0, { at: -28 * DAY + 1 });
      await d.deposit(user, usd(5_000));
      expect(await d.tripped(user)).toEqual([]);
    });
  });

  describe('SG-002 loss chasing: 3 deposits within 60 minutes, each while the 24-hour net loss is USD 100', () => {
    it('trips on the third deposit, at high', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.stake(user, usd(100), -2 * HOUR);
      for (const at of [-59 * MINUTE, -30 * MINUTE, 0]) await d.deposit(user, usd(20), at);
      const changes = await d.riskChanges(user);
      expect(changes).toEqual([
        expect.objectContaining({
          risk_level: 'high',
          previous_level: 'none',
          markers: [expect.objectContaining({ code: 'SG-002', name: 'Loss chasing' })],
        }),
      ]);
      expect((await d.trips(user))[0]).toMatchObject({ code: 'SG-002', measured_value: 3, threshold: 3 });
    });

    it('does not trip with a net loss one cent below USD 100', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.stake(user, usd(150), -2 * HOUR);
      await d.event(user, 'settlement', usd(50.01), { at: -90 * MINUTE });
      for (const at of [-59 * MINUTE, -30 * MINUTE, 0]) await d.deposit(user, usd(20), at);
      expect(await d.tripped(user)).toEqual([]);
    });

    it('does not count a deposit exactly 60 minutes before', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.stake(user, usd(100), -2 * HOUR);
      for (const at of [-60 * MINUTE, -30 * MINUTE, 0]) await d.deposit(user, usd(20), at);
      expect(await d.tripped(user)).toEqual([]);
    });

    it('does not count stakes more than 24 hours before the deposit', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.stake(user, usd(100), -DAY - 60 * MINUTE);
      for (const at of [-59 * MINUTE, -30 * MINUTE, 0]) await d.deposit(user, usd(20), at);
      expect(await d.tripped(user)).toEqual([]);
    });
  });

  describe("SG-003 night play: 20 stakes in 7 days, half of them between 00:00 and 06:00 in the tenant's time zone", () => {
    /** `night` stakes from 00:00 UTC today, after `day` stakes from 06:00 UTC yesterday. */
    const stakes = async (d: MarkersDriver, user: string, day: number, night: number) => {
      for (let i = 0; i < day; i++) await d.stake(user, usd(1), -30 * HOUR + i * MINUTE);
      for (let i = 0; i < night; i++) await d.stake(user, usd(1), -12 * HOUR + i * MINUTE);
    };

    it('trips at 10 of 20 at night, at low', async () => {
      const d = suite.current;
      const user = d.newUser();
      await stakes(d, user, 10, 10);
      expect(await d.riskChanges(user)).toEqual([
        expect.objectContaining({
          risk_level: 'low',
          markers: [expect.objectContaining({ code: 'SG-003' })],
        }),
      ]);
      expect((await d.trips(user))[0]).toMatchObject({ measured_value: 50, threshold: 50 });
      expect((await d.trips(user))[0]!.details).toMatchObject({
        stakes: 20,
        night_stakes: 10,
        time_zone: 'UTC',
      });
    });

    it('does not trip at 9 of 20 at night, nor at 10 of 19', async () => {
      const d = suite.current;
      const user = d.newUser();
      await stakes(d, user, 11, 9);
      expect(await d.tripped(user)).toEqual([]);
      const other = d.newUser();
      await stakes(d, other, 9, 10);
      expect(await d.tripped(other)).toEqual([]);
    });

    it('does not count a stake exactly 7 days before', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.stake(user, usd(1), -12 * HOUR + 9 * MINUTE - 7 * DAY);
      await stakes(d, user, 9, 10);
      expect(await d.tripped(user)).toEqual([]);
    });

    it("reads the night in the tenant's time zone", async () => {
      const d = await suite.current.otherTenant();
      await d.settings({ time_zone: 'America/New_York' });
      const user = d.newUser();
      // 10:00 UTC is 05:00 in New York: night there, day in UTC.
      for (let i = 0; i < 20; i++) await d.stake(user, usd(1), -2 * HOUR - 20 * MINUTE + i * MINUTE);
      expect(await d.tripped(user)).toEqual(['SG-003']);
      const utc = suite.current;
      const utcUser = utc.newUser();
      for (let i = 0; i < 20; i++) await utc.stake(utcUser, usd(1), -2 * HOUR - 20 * MINUTE + i * MINUTE);
      expect(await utc.tripped(utcUser)).toEqual([]);
    });
  });

  describe('SG-004 failed deposits: 5 failed attempts in 24 hours', () => {
    it('trips on the fifth', async () => {
      const d = suite.current;
      const user = d.newUser();
      for (const at of [-DAY + 1, -HOUR, -MINUTE, -1, 0]) await d.failedDeposit(user, at);
      expect(await d.riskChanges(user)).toEqual([
        expect.objectContaining({
          risk_level: 'medium',
          markers: [expect.objectContaining({ code: 'SG-004' })],
        }),
      ]);
      expect((await d.trips(user))[0]).toMatchObject({ measured_value: 5, threshold: 5 });
    });

    it('does not count one exactly 24 hours before, nor succeeded deposits', async () => {
      const d = suite.current;
      const user = d.newUser();
      for (const at of [-DAY, -HOUR, -MINUTE, -1]) await d.failedDeposit(user, at);
      await d.deposit(user, usd(50), -2);
      await d.failedDeposit(user, 0);
      expect(await d.tripped(user)).toEqual([]);
    });
  });

  describe('SG-005 limit behaviour: 2 limit increases in 30 days, or 3 breach attempts in 7 days', () => {
    it('trips on the second increase requested', async () => {
      const d = suite.current;
      const user = d.newUser();
      for (const type of ['limit_daily', 'limit_weekly']) {
        expect((await d.setLimit(user, usd(100), type)).statusCode).toBe(201);
      }
      expect((await d.setLimit(user, usd(200), 'limit_daily')).statusCode).toBe(201);
      expect(await d.tripped(user)).toEqual([]);
      expect((await d.setLimit(user, usd(200), 'limit_weekly')).statusCode).toBe(201);
      expect(await d.riskChanges(user)).toEqual([
        expect.objectContaining({
          risk_level: 'medium',
          markers: [expect.objectContaining({ code: 'SG-005' })],
        }),
      ]);
      expect((await d.trips(user))[0]).toMatchObject({ measured_value: 2, threshold: 2 });
      expect((await d.trips(user))[0]!.details).toMatchObject({ condition: 'limit_increases' });
    });

    it('does not count an increase requested exactly 30 days before', async () => {
      const d = suite.current;
      const user = d.newUser();
      for (const type of ['limit_daily', 'limit_weekly']) await d.setLimit(user, usd(100), type);
      await d.setLimit(user, usd(200), 'limit_daily', { requested_at: d.at(-30 * DAY) });
      await d.setLimit(user, usd(200), 'limit_weekly');
      expect(await d.tripped(user)).toEqual([]);
    });

    it('trips on the third breach attempt (deposit or stake) and not on the second', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.setLimit(user, usd(100));
      await d.api('POST', '/v1/limits', {
        user_id: user,
        limit_kind: 'wager',
        limit_type: 'limit_daily',
        amount_cents: usd(10),
        currency: 'USD',
        requested_at: d.now(),
      });
      expect((await d.depositCheck(user, usd(200))).json()).toMatchObject({ allowed: false });
      expect((await d.wagerCheck(user, usd(20))).json()).toMatchObject({ allowed: false });
      expect(await d.tripped(user)).toEqual([]);
      await d.t.advance(HOUR);
      expect((await d.depositCheck(user, usd(200))).json()).toMatchObject({ allowed: false });
      expect(await d.tripped(user)).toEqual(['SG-005']);
      expect((await d.trips(user))[0]).toMatchObject({ measured_value: 3, threshold: 3 });
    });

    it('does not count a breach attempt 7 days old', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.setLimit(user, usd(100));
      await d.depositCheck(user, usd(200));
      await d.t.advance(7 * DAY);
      await d.depositCheck(user, usd(200));
      await d.depositCheck(user, usd(200));
      expect(await d.tripped(user)).toEqual([]);
    });
  });

  describe('SG-006 long play: 6 hours in 24 hours, or 3 sessions of 3 hours in 7 days', () => {
    it('trips when a running session reaches 6 hours, not a second before', async () => {
      const d = suite.current;
      const user = d.newUser();
      await d.startSession(user);
      await d.pass();
      await d.t.advance(6 * HOUR - 1);
      expect(await d.riskChanges(user)).toEqual([]);
      await d.t.advance(1);
      expect(await d.riskChanges(user)).toEqual([
        expect.objectContaining({
          risk_level: 'medium',
          markers: [expect.objectContaining({ code: 'SG-006' })],
        }),
      ]);
      expect((await d.trips(user))[0]).toMatchObject({ measured_value: 6 * HOUR, threshold: 6 * HOUR });
    });

    it('trips on the third session of 3 hours in 7 days, ended by the operator', async () => {
      const d = suite.current;
      const user = d.newUser();
      for (let i = 0; i < 3; i++) {
        const session = await d.startSession(user);
        await d.t.advance(3 * HOUR);
        await d.endSession(session);
        if (i < 2) {
          expect(await d.tripped(user)).toEqual([]);
          await d.t.advance(2 * DAY);
        }
      }
      expect(await d.tripped(user)).toEqual(['SG-006']);
      expect((await d.trips(user))[0]).toMatchObject({ measured_value: 3, threshold: 3 });
    });

    /** Three sessions of these lengths, started 0, 2 and 7 days - 3 hours + `lastStart` seconds apart. */
    const sessions = async (d: MarkersDriver, user: string, lengths: number[], lastStart: number) => {
      const starts = [0, 2 * DAY, 7 * DAY - 3 * HOUR + lastStart];
      let now = 0;
      for (const [i, length] of lengths.entries()) {
        if (starts[i]! > now) await d.t.advance(starts[i]! - now);
        const session = await d.startSession(user);
        await d.t.advance(length);
        await d.endSession(session);
        now = starts[i]! + length;
      }
    };

    it('does not count a session that ended exactly 7 days before', async () => {
      const d = suite.current;
      const user = d.newUser();
      // The first ended at 3 h; the third ends at 7 days + 3 h.
      await sessions(d, user, [3 * HOUR, 3 * HOUR, 3 * HOUR], 3 * HOUR);
      expect(await d.tripped(user)).toEqual([]);
      const other = d.newUser();
      await sessions(d, other, [3 * HOUR, 3 * HOUR, 3 * HOUR], 3 * HOUR - 1);
      expect(await d.tripped(other)).toEqual(['SG-006']);
    });

    it('does not count a session a second under 3 hours', async () => {
      const d = suite.current;
      const user = d.newUser();
      await sessions(d, user, [3 * HOUR, 3 * HOUR - 1, 3 * HOUR], 0);
      expect(await d.tripped(user)).toEqual([]);
    });
  });
  it("never holds up the AML evaluation: a fault of the markers is alerted, and the batch's AML findings commit", async () => {
    const d = await suite.current.otherTenant();
    // A setting no bounds check would let through, to make the markers' statement fail.
    await d.settings({ marker_overrides: { 'SG-002': { window_seconds: 'soon' as unknown as number } } });
    const user = d.newUser();
    for (const at of [-3000, -2000, -1000, -500, 0]) await d.deposit(user, usd(50), at);
    await d.pass();
    expect(d.flagged(user)).toHaveLength(1);
    const alerts = await d.t.db
      .selectFrom('alerts')
      .select('kind')
      .where('subject', '=', d.tenant.tenantId)
      .where('kind', '=', 'safer_gambling_evaluation_failed')
      .execute();
    expect(alerts.length).toBeGreaterThan(0);
  });
});
