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
