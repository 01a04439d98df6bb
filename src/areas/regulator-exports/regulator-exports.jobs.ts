import type { Platform } from '../../platform/context.js';
import { ensureJobScheduled, scheduleJob } from '../../platform/scheduler.js';
import { systemContext } from '../../platform/service-context.js';
import { nextDailyRun } from '../../platform/utc-calendar.js';
import { exportToRegulator } from './service/exports.js';

/** The daily hand-over to the regulator, ten minutes after midnight UTC on the service clock (a stored due time). */
export const REGULATOR_EXPORT_JOB = 'regulator.export';
export const REGULATOR_EXPORT_MINUTE = 10;

export async function registerRegulatorExportJob(platform: Platform): Promise<void> {
  platform.scheduler.register(REGULATOR_EXPORT_JOB, async (tx, _job, now) => {
    // In the claim's transaction: the export and the job's next due time commit together, exactly once.
    await exportToRegulator({ ...systemContext(platform), db: tx });
    await scheduleJob(tx, {
      kind: REGULATOR_EXPORT_JOB,
      subjectId: 'all',
      dueAt: nextDailyRun(now, REGULATOR_EXPORT_MINUTE),
    });
  });
  await ensureJobScheduled(platform.db, {
    kind: REGULATOR_EXPORT_JOB,
    subjectId: 'all',
    dueAt: nextDailyRun(platform.clock.now(), REGULATOR_EXPORT_MINUTE),
  });
}
