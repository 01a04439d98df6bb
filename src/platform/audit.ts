import { insertAuditEntry } from './audit.store.js';
import type { Executor } from './db/database.js';
import { insertSecurityLogEntry } from './security-log.store.js';

export interface AuditEntry {
  /** null for a staff action on what belongs to no tenant. */
  tenantId: string | null;
  actor: string;
  action: string;
  requestId: string | null;
  details?: Record<string, unknown>;
  at: Date;
}

/** Appends to the tenant's audit log; pass the business transaction so the entry commits with the change. */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(db, {
    tenant_id: entry.tenantId,
    occurred_at: entry.at,
    actor: entry.actor,
    action: entry.action,
    request_id: entry.requestId,
    details: entry.details ?? {},
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
