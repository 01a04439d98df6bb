import type { Platform } from './context.js';
import { registerRetention } from './retention.js';
import { deleteSecurityLogBefore } from './security-log.store.js';

export { deleteSecurityLogBefore } from './security-log.store.js';

/**
 * The security log (authentication failures no tenant can be named for) is kept SECURITY_LOG_RETENTION_DAYS on the
 * service clock, then deleted by a daily job: long enough to investigate an incident, not a record of who knocked
 * on the door for ever. Documented in docs/operations.md.
 */
export const SECURITY_LOG_RETENTION_JOB = 'security_log.retention';

export function registerSecurityLogRetention(platform: Platform): Promise<void> {
  return registerRetention(platform, {
    kind: SECURITY_LOG_RETENTION_JOB,
    keepMs: platform.config.securityLogRetentionDays * 86_400_000,
    purge: deleteSecurityLogBefore,
  });
}
