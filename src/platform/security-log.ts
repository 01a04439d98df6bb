import type { Platform } from './context.js';
import { ensureJobScheduled, scheduleJob } from './scheduler.js';
import { deleteSecurityLogBefore } from './security-log.store.js';

export { deleteSecurityLogBefore } from './security-log.store.js';

/**
 * The security log (authentication failures no tenant can be named for) is kept SECURITY_LOG_RETENTION_DAYS on the
 * service clock, then deleted by this daily job: long enough to investigate an incident, not a record of who
 * knocked on the door for ever. Documented in docs/operations.md.
 */
export const SECURITY_LOG_RETENTION_JOB = 'security_log.retention';
const RETENTION_BATCH = 10_000;
const DAY_MS = 86_400_000;

/** The oldest time still kept: entries strictly before it are deleted. */
export function securityLogCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * DAY_MS);
}

/** Registers the daily purge, and schedules its first run a day from now unless one is pending (subject 'all'). */
export async function registerSecurityLogRetention(platform: Platform): Promise<void> {
  const retentionDays = platform.config.securityLogRetentionDays;
  platform.scheduler.register(SECURITY_LOG_RETENTION_JOB, async (tx, _job, now) => {
    const deleted = await deleteSecurityLogBefore(tx, securityLogCutoff(now, retentionDays), RETENTION_BATCH);
    // A full batch means more may be due: come back in a second rather than hold one huge delete.
    const dueAt = new Date(now.getTime() + (deleted === RETENTION_BATCH ? 1000 : DAY_MS));
    await scheduleJob(tx, { kind: SECURITY_LOG_RETENTION_JOB, subjectId: 'all', dueAt });
  });
  await ensureJobScheduled(platform.db, {
    kind: SECURITY_LOG_RETENTION_JOB,
    subjectId: 'all',
    dueAt: new Date(platform.clock.now().getTime() + DAY_MS),
  });
}
