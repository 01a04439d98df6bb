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
