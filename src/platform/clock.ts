import { advanceInstantSetting, insertSettingIfAbsent, readSetting } from './clock.store.js';
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
    await insertSettingIfAbsent(db, SETTING, start.toISOString());
    const clock = new TestClock(start);
    await clock.refresh(db);
    return clock;
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Re-reads the shared time (another process may have advanced it). */
  async refresh(db: Executor): Promise<void> {
    this.current = new Date(await readSetting(db, SETTING));
  }

  async advance(db: Executor, seconds: number): Promise<Date> {
    this.current = new Date(await advanceInstantSetting(db, SETTING, seconds));
    return this.now();
  }
}
