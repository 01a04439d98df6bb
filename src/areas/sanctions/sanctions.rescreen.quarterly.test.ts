// The restart test starts a second service on the first one's database (TestService.start on what stop() kept).
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TestService } from '../../../test/helpers/test-service.js';
import { HOUR } from '../../../test/helpers/units.js';
import { nextQuarterStart, quarterOf } from './sanctions.rules.js';
import { SanctionsDriver, withListEntry } from './sanctions.test-support.js';

const ENTRY = { entity_id: 'sandbox-quarterly-1', name: 'Quarterly LISTED', score: 0.91 };

interface Run {
  quarter: string;
  total: number;
  screened: number;
  new_hits: number;
  skipped: number;
  finished_at: string | null;
}

describe('quarterly sanctions re-screening', () => {
  const runs = async (t: TestService) =>
    (await t.backoffice('GET', '/sanctions/rescreen')).json().runs as Run[];
  const secondsUntilNextQuarter = (t: TestService) => {
    const now = t.platform.clock.now();
    return Math.ceil((nextQuarterStart(now).getTime() - now.getTime()) / 1000);
  };

  it('calendar quarters start on 1 Jan, 1 Apr, 1 Jul and 1 Oct at 00:00 UTC', () => {
    expect(nextQuarterStart(new Date('2026-11-25T06:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(nextQuarterStart(new Date('2027-01-01T00:00:00Z')).toISOString()).toBe('2027-04-01T00:00:00.000Z');
    expect(nextQuarterStart(new Date('2027-03-31T23:59:59Z')).toISOString()).toBe('2027-04-01T00:00:00.000Z');
    expect(nextQuarterStart(new Date('2027-08-15T12:00:00Z')).toISOString()).toBe('2027-10-01T00:00:00.000Z');
    expect(quarterOf(new Date('2027-10-01T00:00:00Z'))).toBe('2027-Q4');
  });

  describe('on a service re-screening in batches of three', () => {
    const suite = useSuite(() => SanctionsDriver.start({ config: { sanctionsRescreenBatchSize: 3 } }));

    it('the quarter boundary starts a run that re-screens every tenant batch by batch, with its progress shown', async () => {
      // Seven users in batches of three: three transactions, each its own scheduler job run.
      const d = suite.current;
      const lastName = `Quarterly${Date.now()}`;
      const users: string[] = [];
      for (let i = 0; i < 7; i++) {
        const body = d.person(i === 0 ? { last_name: lastName } : {});
        expect((await d.screen(body)).statusCode).toBe(201);
        users.push(body.user_id!);
      }
      const boundary = nextQuarterStart(d.t.platform.clock.now());
      const quarter = quarterOf(boundary);

      await withListEntry(d.t, lastName, ENTRY, async () => {
        await d.t.advance(secondsUntilNextQuarter(d.t) - 1);
        expect(await runs(d.t)).toEqual([]);
        await d.t.advance(1);
        // The test clock moves in whole seconds: now is the boundary or within a second after it.
        expect(d.t.platform.clock.now().getTime() - boundary.getTime()).toBeGreaterThanOrEqual(0);
        expect(d.t.platform.clock.now().getTime() - boundary.getTime()).toBeLessThan(1000);
        expect(await runs(d.t)).toEqual([
          expect.objectContaining({ quarter, total: 7, screened: 3, finished_at: null }),
        ]);
        await d.t.advance(1);
        expect((await runs(d.t))[0]).toMatchObject({ screened: 6, finished_at: null });
        await d.t.advance(1);
        expect((await runs(d.t))[0]).toMatchObject({
          quarter,
          total: 7,
          screened: 7,
          new_hits: 1,
          skipped: 0,
          finished_at: d.t.platform.clock.now().toISOString(),
        });
      });
      expect((await d.status(users[0])).json()).toMatchObject({
        status: 'hit_review_pending',
        match_count: 1,
      });
      expect(await d.webhooks('sanctions.hit', users[0]!)).toHaveLength(1);
      for (const userId of users.slice(1)) {
        expect((await d.status(userId)).json()).toMatchObject({
          status: 'clear',
          checked_at: expect.stringMatching(new RegExp(`^${boundary.toISOString().slice(0, 16)}`)),
        });
      }
      // The next quarter's run is already scheduled; nothing more happens before it.
      await d.t.advance(HOUR);
      expect(await runs(d.t)).toHaveLength(1);
    });
  });

  describe('on a service re-screening in batches of two, restarted', () => {
    const suite = useSuite(() => SanctionsDriver.start({ config: { sanctionsRescreenBatchSize: 2 } }));

    it('an interrupted run resumes after a restart from its stored cursor', async () => {
      const d = suite.current;
      const first = d.t;
      const users: string[] = [];
      for (let i = 0; i < 5; i++) {
        const body = d.person();
        await d.screen(body);
        users.push(body.user_id!);
      }
      const boundary = nextQuarterStart(first.platform.clock.now());
      await first.advance(secondsUntilNextQuarter(first));
      expect((await runs(first))[0]).toMatchObject({ total: 5, screened: 2, finished_at: null });
      const kept = await first.stop();

      // A new process on the same database: the next batch job and the cursor were committed with the first batch.
      const second = suite.own(await TestService.start({ sanctionsRescreenBatchSize: 2 }, kept));
      expect((await runs(second))[0]).toMatchObject({ total: 5, screened: 2, finished_at: null });
      await second.advance(1);
      expect((await runs(second))[0]).toMatchObject({ screened: 4, finished_at: null });
      await second.advance(1);
      expect((await runs(second))[0]).toMatchObject({
        total: 5,
        screened: 5,
        new_hits: 0,
        finished_at: second.platform.clock.now().toISOString(),
      });
      // Each user was re-screened, none twice: every checked_at moved to one of the three batches.
      for (const userId of users) {
        const status = (
          await second.api(d.tenant.apiKey, 'GET', `/v1/sanctions/status?user_id=${userId}`)
        ).json();
        expect(Date.parse(status.checked_at)).toBeGreaterThanOrEqual(boundary.getTime());
      }
    });
  });
});
