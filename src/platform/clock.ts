import { sql } from 'kysely';
import type { Executor } from './db/database.js';

/** The one source of time for business logic. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const SETTING = 'test_clock_now';

/**
 * A clock for test and staging deployments: it stands still and moves only when advanced. Its time is kept in
 * the database so it survives a restart and every process of a deployment reads the same time.
 */
export class TestClock implements Clock {
  private constructor(private current: Date) {}

  static async load(db: Executor, start: Date = new Date()): Promise<TestClock> {
    await db
      .insertInto('service_settings')
      .values({ name: SETTING, value: start.toISOString() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const clock = new TestClock(start);
    await clock.refresh(db);
    return clock;
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Re-reads the shared time (another process may have advanced it). */
  async refresh(db: Executor): Promise<void> {
    const row = await db
      .selectFrom('service_settings')
      .select('value')
      .where('name', '=', SETTING)
      .executeTakeFirstOrThrow();
    this.current = new Date(row.value);
  }

  async advance(db: Executor, seconds: number): Promise<Date> {
    const row = await db
      .updateTable('service_settings')
      .set({
        value: sql<string>`to_char((value::timestamptz + make_interval(secs => ${seconds})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
      })
      .where('name', '=', SETTING)
      .returning('value')
      .executeTakeFirstOrThrow();
    this.current = new Date(row.value);
    return this.now();
  }
}
