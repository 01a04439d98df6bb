import type { Platform } from '../../platform/context.js';
import { ensureJobScheduled, scheduleJob } from '../../platform/scheduler.js';
import { registerActivationJob } from './service/activation.js';
import { registerPlaySessionJobs } from './sessions/sessions.jobs.js';
import { LAPSED_HOLD_RETENTION_SECONDS, RELEASE_RETENTION_SECONDS } from './limits.rules.js';
import { purgeReservations } from './limits.store.js';
import { purgeStakeHolds } from './stakes/stakes.store.js';

/**
 * Lapsed holds stop counting at their expiry on the service clock, whatever this job does; it only deletes the
 * rows of users whose holds all lapsed more than an hour ago, stake holds lapsed as long, and releases older than their retention (a repeated
 * release within it answers the same), so neither table grows with the traffic.
 */
export const PURGE_JOB = 'limit.reservations.purge';
const PURGE_BATCH = 10_000;
const HOUR_MS = 3_600_000;

export async function registerLimitJobs(platform: Platform): Promise<void> {
  registerActivationJob(platform);
  registerPlaySessionJobs(platform);
  platform.scheduler.register(PURGE_JOB, async (tx, _job, now) => {
    const lapsedBefore = new Date(now.getTime() - LAPSED_HOLD_RETENTION_SECONDS * 1000);
    const deleted = Math.max(
      await purgeReservations(
        tx,
        lapsedBefore,
        new Date(now.getTime() - RELEASE_RETENTION_SECONDS * 1000),
        PURGE_BATCH,
      ),
      await purgeStakeHolds(tx, lapsedBefore, PURGE_BATCH),
    );
    // A full batch means more may be due: come back in a second rather than hold one huge delete.
    const dueAt = new Date(now.getTime() + (deleted === PURGE_BATCH ? 1000 : HOUR_MS));
    await scheduleJob(tx, { kind: PURGE_JOB, subjectId: 'all', dueAt });
  });
  await ensureJobScheduled(platform.db, {
    kind: PURGE_JOB,
    subjectId: 'all',
    dueAt: new Date(platform.clock.now().getTime() + HOUR_MS),
  });
}
