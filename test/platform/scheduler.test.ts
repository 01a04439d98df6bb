// Restarts a service on its database (TestService.start on what stop() kept), which no one driver can be.
import type { Transaction } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScheduledJob } from '../../src/platform/db/platform-tables.js';
import type { DB } from '../../src/platform/db/schema.js';
import { emitEvent } from '../../src/platform/outbox.js';
import { Scheduler, scheduleJob } from '../../src/platform/scheduler.js';
import { TestService } from '../helpers/test-service.js';

// A job whose visible effect is an outbox event naming its subject, as every area's due work is.
const KIND = 'test.announce';
const announce = async (tx: Transaction<DB>, job: ScheduledJob, now: Date) => {
  await emitEvent(tx, {
    tenantIds: job.tenant_id!,
    event: 'play_session.limit_reached',
    data: {
      session_id: job.subject_id,
      user_id: 'player-1',
      limit_type: 'limit_session',
      reached_at: now.toISOString(),
    },
    at: now,
  });
};
const eventsOf = (t: TestService, tenantId: string) =>
  t.db.selectFrom('events').select(['payload']).where('tenant_id', '=', tenantId).execute();

describe('scheduled work', () => {
  const services: TestService[] = [];
  afterAll(async () => {
    for (const s of services.reverse()) await s.close();
  });

  it('runs at its due time on the service clock, not before, and survives a restart', async () => {
    const first = await TestService.start();
    services.push(first);
    first.platform.scheduler.register(KIND, announce);
    const tenant = await first.createTenant();
    const dueAt = new Date(first.platform.clock.now().getTime() + 3600_000);
    await scheduleJob(first.db, { kind: KIND, subjectId: 'subject-1', tenantId: tenant.tenantId, dueAt });

    await first.advance(3599);
    expect(await eventsOf(first, tenant.tenantId)).toEqual([]);

    // Stop the process: the job is stored, not held in a timer.
    const handle = await first.stop();
    const second = await TestService.start({}, handle);
    services.push(second);
    second.platform.scheduler.register(KIND, announce);
    expect(second.platform.clock.now().toISOString()).toBe(new Date(dueAt.getTime() - 1000).toISOString());

    await second.advance(1);
    const events = await eventsOf(second, tenant.tenantId);
    expect(events.map((e) => JSON.parse(e.payload).data.session_id)).toEqual(['subject-1']);
    expect(
      await second.db.selectFrom('scheduled_jobs').selectAll().where('kind', '=', KIND).execute(),
    ).toEqual([]);
  });

  it('two schedulers on one database run each due job once', async () => {
    const t = await TestService.start();
    services.push(t);
    const tenant = await t.createTenant();
    const now = t.platform.clock.now();
    for (let i = 0; i < 30; i++) {
      await scheduleJob(t.db, { kind: KIND, subjectId: `s-${i}`, tenantId: tenant.tenantId, dueAt: now });
    }
    const schedulers = [0, 1].map(() => {
      const s = new Scheduler(t.db, t.platform.clock, t.platform.log);
      s.register(KIND, announce);
      return s;
    });
    const ran = await Promise.all(schedulers.map((s) => s.runDue()));
    expect(ran[0]! + ran[1]!).toBe(30);
    const subjects = (await eventsOf(t, tenant.tenantId))
      .map((e) => JSON.parse(e.payload).data.session_id)
      .sort();
    expect(subjects).toEqual(Array.from({ length: 30 }, (_, i) => `s-${i}`).sort());
  });

  it('a failing job is kept and retried later; its partial effects are rolled back', async () => {
    const t = await TestService.start();
    services.push(t);
    const tenant = await t.createTenant();
    let calls = 0;
    t.platform.scheduler.register('test.flaky', async (tx, job, now) => {
      calls++;
      await announce(tx, job, now);
      if (calls === 1) throw new Error('vendor down');
    });
    await scheduleJob(t.db, {
      kind: 'test.flaky',
      subjectId: 'x',
      tenantId: tenant.tenantId,
      dueAt: t.platform.clock.now(),
    });
    await t.advance(0);
    expect(await eventsOf(t, tenant.tenantId)).toEqual([]);
    const kept = await t.db
      .selectFrom('scheduled_jobs')
      .selectAll()
      .where('kind', '=', 'test.flaky')
      .executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ attempts: 1, last_error: 'vendor down' });
    await t.advance(30);
    expect(await eventsOf(t, tenant.tenantId)).toHaveLength(1);
  });

  it('the clock endpoints answer 404 when the test clock is off', async () => {
    const t = await TestService.start({ testClock: false });
    services.push(t);
    expect((await t.backoffice('GET', '/clock')).statusCode).toBe(404);
    expect((await t.backoffice('POST', '/clock/advance', { seconds: 1 })).statusCode).toBe(404);
  });
});
