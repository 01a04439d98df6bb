import type { Transaction } from 'kysely';
import type { Platform } from './context.js';
import type { DB } from './db/schema.js';
import { ensureJobScheduled, scheduleJob } from './scheduler.js';

const DAY_MS = 86_400_000;
const RETENTION_BATCH = 10_000;

/**
 * A daily purge of what is kept only for a while (the security log, mail, embed sessions): each run deletes, in its
 * own transaction, at most a batch of rows older than `keepMs` on the service clock. A full batch means more may be
 * due: it comes back in a second rather than hold one huge delete. The first run is a day after the first start.
 */
export async function registerRetention(
  platform: Platform,
  retention: {
    kind: string;
    keepMs: number;
    /** Deletes at most `batch` rows older than `cutoff`; returns how many went. */
    purge: (tx: Transaction<DB>, cutoff: Date, batch: number) => Promise<number>;
  },
): Promise<void> {
  platform.scheduler.register(retention.kind, async (tx, _job, now) => {
    const deleted = await retention.purge(tx, new Date(now.getTime() - retention.keepMs), RETENTION_BATCH);
    const dueAt = new Date(now.getTime() + (deleted === RETENTION_BATCH ? 1000 : DAY_MS));
    await scheduleJob(tx, { kind: retention.kind, subjectId: 'all', dueAt });
  });
  await ensureJobScheduled(platform.db, {
    kind: retention.kind,
    subjectId: 'all',
    dueAt: new Date(platform.clock.now().getTime() + DAY_MS),
  });
}
