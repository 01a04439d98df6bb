import type { Executor } from '../platform/db/database.js';

/**
 * The reads the console's operations pages need and no back-office verb offers: a tenant's API keys (never their
 * hashes) and a keyset page of the regulator's master list.
 */

/** Every key of one tenant, newest first (api_keys_tenant index; a tenant has a handful). */
export function listTenantKeys(db: Executor, tenantId: string) {
  return db
    .selectFrom('api_keys')
    .select(['key_prefix', 'role', 'created_at', 'revoked_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('key_id', 'desc')
    .limit(200)
    .execute();
}

/**
 * One page of the regulator's rows, newest first (ids sort by creation), before the `before` id: a walk of the
 * primary key, where regulator rows are most of the register.
 */
export function regulatorRowsPage(db: Executor, page: { before: string | undefined; limit: number }) {
  return db
    .selectFrom('exclusions')
    .select([
      'exclusion_id',
      'environment',
      'email',
      'phone',
      'duration',
      'is_permanent',
      'status',
      'effective_from',
      'expires_at',
      'voided_at',
      'void_reason',
    ])
    .where('origin', '=', 'regulator')
    .$if(page.before !== undefined, (qb) => qb.where('exclusion_id', '<', page.before!))
    .orderBy('exclusion_id', 'desc')
    .limit(page.limit)
    .execute();
}
