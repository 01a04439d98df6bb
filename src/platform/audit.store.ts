import { sql } from 'kysely';
import type { Executor } from './db/database.js';

export async function insertAuditEntry(
  db: Executor,
  row: {
    tenant_id: string | null;
    occurred_at: Date;
    actor: string;
    action: string;
    request_id: string | null;
    details: Record<string, unknown>;
  },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ ...row, details: JSON.stringify(row.details) })
    .execute();
}

/** A tenant's audit entries about one case (details.case_id), oldest first: the decisions taken on it and by whom. */
export function caseEntries(db: Executor, tenantId: string, caseId: string) {
  return db
    .selectFrom('audit_log')
    .select(['audit_id', 'occurred_at', 'actor', 'action', 'details'])
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`details ->> 'case_id' = ${caseId}`)
    .orderBy('audit_id')
    .execute();
}

export interface AuditFilter {
  actor?: string | undefined;
  tenantId?: string | undefined;
  action?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Continue with entries older than this one (the last audit_id of the previous page). */
  before?: number | undefined;
  limit: number;
}

/**
 * Audit entries newest first, keyset on audit_id: by tenant on audit_log_tenant, by actor, action or time on
 * audit_log_actor, audit_log_action and audit_log_occurred_at.
 */
export function searchAudit(db: Executor, filter: AuditFilter) {
  let query = db
    .selectFrom('audit_log')
    .select(['audit_id', 'tenant_id', 'occurred_at', 'actor', 'action', 'request_id', 'details']);
  if (filter.actor) query = query.where('actor', '=', filter.actor);
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.from) query = query.where('occurred_at', '>=', filter.from);
  if (filter.to) query = query.where('occurred_at', '<', filter.to);
  if (filter.before !== undefined) query = query.where('audit_id', '<', filter.before);
  return query.orderBy('audit_id', 'desc').limit(filter.limit).execute();
}
