import type { Executor } from './db/database.js';

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
  await db
    .insertInto('audit_log')
    .values({
      tenant_id: entry.tenantId,
      occurred_at: entry.at,
      actor: entry.actor,
      action: entry.action,
      request_id: entry.requestId,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}

/** Service-level security log, for failures that cannot be tied to a tenant (an unknown key, say). */
export async function recordSecurityEvent(
  db: Executor,
  entry: { reason: string; keyPrefix: string | null; requestId: string; remoteIp: string | null; at: Date },
): Promise<void> {
  await db
    .insertInto('security_log')
    .values({
      occurred_at: entry.at,
      reason: entry.reason,
      key_prefix: entry.keyPrefix,
      request_id: entry.requestId,
      remote_ip: entry.remoteIp,
    })
    .execute();
}
