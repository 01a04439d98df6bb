import type { Executor } from './db/database.js';

/** The API key with this hash and its tenant, revoked or not (the caller decides what a revoked key gets). */
export function findKeyWithTenant(db: Executor, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('tenants', 'tenants.tenant_id', 'api_keys.tenant_id')
    .selectAll('tenants')
    .select([
      'api_keys.key_id',
      'api_keys.key_prefix',
      'api_keys.key_hash',
      'api_keys.role',
      'api_keys.revoked_at',
    ])
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
}

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
