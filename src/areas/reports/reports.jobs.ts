import type { Platform } from '../../platform/context.js';
import { ensureJobScheduled, scheduleJob } from '../../platform/scheduler.js';
import { systemContext } from '../../platform/service-context.js';
import { addUtcDays, nextDailyRun, startOfUtcDay, utcDay } from '../../platform/utc-calendar.js';
import { COMPILE_MINUTE, RETENTION_BATCH, RETENTION_YEARS } from './reports.rules.js';
import { compileDueReports, type CompileProgress } from './service/compile-due-reports.js';
import { deleteCompiledBefore } from './reports.store.js';

/** The compilation, after midnight UTC on the service clock: its progress is the stored job's payload. */
export const COMPILE_JOB = 'reports.compile';
/** Deletes versions past the retention policy, once a day. */
export const RETENTION_JOB = 'reports.retention';

/** The oldest compile time kept: RETENTION_YEARS calendar years before now. */
export function retentionCutoff(now: Date): Date {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - RETENTION_YEARS);
  return cutoff;
}

export async function registerReportJobs(platform: Platform): Promise<void> {
  platform.scheduler.register(COMPILE_JOB, async (tx, job, now) => {
    const { progress, behind } = await compileDueReports(
      { ...systemContext(platform), db: tx },
      job.payload as unknown as CompileProgress,
    );
    // Missed days are caught up a batch a transaction, the next batch a second later (so a long outage is made good
    // in minutes without one huge transaction); otherwise the next run is tomorrow.
    const dueAt = behind ? new Date(now.getTime() + 1000) : nextDailyRun(now, COMPILE_MINUTE);
    await scheduleJob(tx, { kind: COMPILE_JOB, subjectId: 'all', dueAt, payload: { ...progress } });
  });
  platform.scheduler.register(RETENTION_JOB, async (tx, _job, now) => {
    const deleted = await deleteCompiledBefore(tx, retentionCutoff(now), RETENTION_BATCH);
    const dueAt = deleted === RETENTION_BATCH ? new Date(now.getTime() + 1000) : addUtcDays(now, 1);
    await scheduleJob(tx, { kind: RETENTION_JOB, subjectId: 'all', dueAt });
  });
  const now = platform.clock.now();
  // A first start compiles from its own day on: there is nothing to report before the service ran.
  const first: CompileProgress = { next_day: utcDay(startOfUtcDay(now)), late_since: now.toISOString() };
  await ensureJobScheduled(platform.db, {
    kind: COMPILE_JOB,
    subjectId: 'all',
    dueAt: nextDailyRun(now, COMPILE_MINUTE),
    payload: { ...first },
  });
  await ensureJobScheduled(platform.db, { kind: RETENTION_JOB, subjectId: 'all', dueAt: addUtcDays(now, 1) });
}
