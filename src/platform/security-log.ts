import type { Platform } from './context.js';
import { olderThan, registerRetention } from './retention.js';

/**
 * The security log (authentication failures no tenant can be named for) is kept SECURITY_LOG_RETENTION_DAYS on the
 * service clock, then deleted by a daily job: long enough to investigate an incident, not a record of who knocked
 * on the door for ever. Documented in docs/operations.md.
 */
export const SECURITY_LOG_RETENTION_JOB = 'security_log.retention';

export function registerSecurityLogRetention(platform: Platform): Promise<void> {
  return registerRetention(platform, {
    kind: SECURITY_LOG_RETENTION_JOB,
    table: 'security_log',
    key: 'security_log_id',
    at: 'occurred_at',
    cutoff: olderThan(platform.config.securityLogRetentionDays * 86_400_000),
  });
}
