import type { Executor } from './db/database.js';
import type { Tenant } from './db/platform-tables.js';

/** A tenant's row by id, undefined when there is none: for work done for a tenant outside its own request. */
export function findTenant(db: Executor, tenantId: string): Promise<Tenant | undefined> {
  return db.selectFrom('tenants').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
}
