import type { Platform } from '../../platform/context.js';
import { registerActivationJob } from './service/activation.js';
import { registerPlaySessionJobs } from './sessions/sessions.jobs.js';

/**
 * Lapsed holds stop counting at their expiry on the service clock; the retention job deletes them (and releases
 * past the longest window, within which a repeated release answers the same) as DATA_LIFECYCLE says.
 */
export async function registerLimitJobs(platform: Platform): Promise<void> {
  registerActivationJob(platform);
  registerPlaySessionJobs(platform);
}
