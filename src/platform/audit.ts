import { caseEntries, insertAuditEntry } from './audit.store.js';
import type { ServiceContext } from './context.js';
import type { Executor } from './db/database.js';
import { insertSecurityLogEntry } from './security-log.store.js';

export { searchAudit, type AuditFilter } from './audit.store.js';

/**
 * Appends what ctx's actor did to ctx's tenant's audit log, at the service clock's now; pass the verb's
 * transaction so the entry commits with the change.
 */
export async function audit(
  tx: Executor,
  ctx: ServiceContext,
  action: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await insertAuditEntry(tx, {
    tenant_id: ctx.tenantId,
    occurred_at: ctx.clock.now(),
    actor: ctx.actor,
    action,
    request_id: ctx.requestId,
    details,
  });
}

/** Service-level security log, for failures that cannot be tied to a tenant (an unknown key, say). */
export async function recordSecurityEvent(
  db: Executor,
  entry: { reason: string; keyPrefix: string | null; requestId: string; remoteIp: string | null; at: Date },
): Promise<void> {
  await insertSecurityLogEntry(db, {
    occurred_at: entry.at,
    reason: entry.reason,
    key_prefix: entry.keyPrefix,
    request_id: entry.requestId,
    remote_ip: entry.remoteIp,
  });
}

/** What was done to a case, by whom and when, from its tenant's audit log (oldest first). */
export function caseAuditTrail(db: Executor, tenantId: string, caseId: string) {
  return caseEntries(db, tenantId, caseId);
}
