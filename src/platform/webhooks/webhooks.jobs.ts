import type { Platform } from '../context.js';
import { PREVIOUS_SECRET_EXPIRY_JOB } from './signing-secrets.js';
import { deleteExpiredPreviousSecret } from './signing-secrets.store.js';

/** The job that deletes a rotated-out secret when its overlap ends (scheduled by each rotation, service clock). */
export function registerSigningSecretJobs(platform: Platform): void {
  platform.scheduler.register(PREVIOUS_SECRET_EXPIRY_JOB, async (tx, job, now) => {
    await deleteExpiredPreviousSecret(tx, job.subject_id, now);
  });
}
