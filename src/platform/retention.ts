import type { Platform } from './context.js';
import type { DB } from './db/schema.js';
import { deleteOldest, type Purged } from './retention.store.js';
import { ensureJobScheduled, scheduleJob } from './scheduler.js';
import { DAY_MS } from './utc-calendar.js';

const RETENTION_BATCH = 10_000;

/**
 * A daily purge of what is kept only for a while (the security log, the geo audit log, mail, embed sessions,
 * report versions): each
 * run deletes, in its own transaction, at most a batch of rows older than `cutoff(now)` on the service clock. A full
 * batch means more may be due: it comes back in a second rather than hold one huge delete. The first run is a day
 * after the first start (nothing new can be due yet); one job for the whole service, subject 'all'.
 */
export async function registerRetention<T extends keyof DB & string>(
  platform: Platform,
  retention: Purged<T> & { kind: string; cutoff: (now: Date) => Date; batch?: number },
): Promise<void> {
  const batch = retention.batch ?? RETENTION_BATCH;
  platform.scheduler.register(retention.kind, async (tx, _job, now) => {
    const deleted = await deleteOldest(tx, retention, retention.cutoff(now), batch);
    const dueAt = new Date(now.getTime() + (deleted === batch ? 1000 : DAY_MS));
    await scheduleJob(tx, { kind: retention.kind, subjectId: 'all', dueAt });
  });
  await ensureJobScheduled(platform.db, {
    kind: retention.kind,
    subjectId: 'all',
    dueAt: new Date(platform.clock.now().getTime() + DAY_MS),
  });
}

/** The cutoff of a retention of `ms`: rows strictly older are deleted. */
export const olderThan = (ms: number) => (now: Date) => new Date(now.getTime() - ms);

/** The cutoff of a retention of whole calendar years (29 February counts back to 28 or 29 February). */
export const yearsBefore = (years: number) => (now: Date) => {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
  return cutoff;
};
