import type { Platform } from '../platform/context.js';
import { olderThan, registerRetention } from '../platform/retention.js';
import { SIGN_IN_THROTTLE_RETENTION_SECONDS } from './staff.rules.js';

/** A sign-in throttle key's streak is forgotten a day after its last attempt: strangers' typed emails do not pile up. */
export function registerStaffJobs(platform: Platform): Promise<void> {
  return registerRetention(platform, {
    kind: 'staff.sign_in_throttle.retention',
    table: 'staff_sign_in_throttle',
    key: 'key_hash',
    at: 'last_attempt_at',
    cutoff: olderThan(SIGN_IN_THROTTLE_RETENTION_SECONDS * 1000),
  });
}
