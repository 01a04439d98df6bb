import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/** The tenant's webhook destination and whether it is disabled; undefined when there is no such tenant. */
export function findDestination(db: Executor, tenantId: string) {
  return db
    .selectFrom('tenants')
    .select(['tenant_id', 'webhook_url', 'webhook_disabled_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

export async function enableDestinationOf(db: Executor, tenantId: string): Promise<void> {
  await db
    .updateTable('tenants')
    .set({ webhook_disabled_at: null })
    .where('tenant_id', '=', tenantId)
    .execute();
}

/** Failed delivery attempts (retried or given up) since `since`, by tenant, most failures first (webhook_attempts_failed). */
export async function webhookFailuresByTenant(db: Executor, since: Date, limit: number) {
  const { rows } = await sql<{
    tenant_id: string;
    name: string;
    webhook_disabled_at: Date | null;
    failures: number;
    last_failed_at: Date;
  }>`
    select a.tenant_id, t.name, t.webhook_disabled_at, a.failures, a.last_failed_at
    from (
      select tenant_id, count(*)::int as failures, max(attempted_at) as last_failed_at
      from webhook_attempts
      where outcome <> 'delivered' and attempted_at >= ${since.toISOString()}::timestamptz
      group by tenant_id
    ) a
    join tenants t on t.tenant_id = a.tenant_id
    order by a.failures desc, a.tenant_id
    limit ${limit}`.execute(db);
  return rows;
}
