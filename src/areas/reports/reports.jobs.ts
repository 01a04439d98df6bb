import type { Platform } from '../../platform/context.js';
import { ensureJobScheduled, scheduleJob } from '../../platform/scheduler.js';
import { systemContext } from '../../platform/service-context.js';
import { nextDailyRun, startOfUtcDay, utcDay } from '../../platform/utc-calendar.js';
import { COMPILE_MINUTE } from './reports.rules.js';
import { compileDueReports, type CompileProgress } from './service/compile-due-reports.js';

/** The compilation, after midnight UTC on the service clock: its progress is the stored job's payload. */
export const COMPILE_JOB = 'reports.compile';

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
  const now = platform.clock.now();
  // A first start compiles from its own day on: there is nothing to report before the service ran.
  const first: CompileProgress = { next_day: utcDay(startOfUtcDay(now)), late_since: now.toISOString() };
  await ensureJobScheduled(platform.db, {
    kind: COMPILE_JOB,
    subjectId: 'all',
    dueAt: nextDailyRun(now, COMPILE_MINUTE),
    payload: { ...first },
  });
}
