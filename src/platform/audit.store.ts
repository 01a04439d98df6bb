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
