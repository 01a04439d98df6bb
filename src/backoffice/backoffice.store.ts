import type { Insertable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { ApiKeysTable, Tenant, TenantsTable } from '../platform/db/platform-tables.js';

/**
 * The back office's queries: tenants, their API keys, webhook deliveries and the audit log, and the stored
 * back-office token. Queries only; the verbs in service/ decide what to write.
 */

/** The columns of a tenant a staff action may change (JSON columns already serialised). */
export type TenantChanges = Partial<{
  status: Tenant['status'];
  webhook_url: string | null;
  webhook_disabled_at: Date | null;
  cutover_areas: string;
  rate_limits: string;
  embed_origins: string;
}>;

export function insertTenant(tx: Executor, values: Insertable<TenantsTable>): Promise<Tenant> {
  return tx.insertInto('tenants').values(values).returningAll().executeTakeFirstOrThrow();
}

export function listTenants(db: Executor): Promise<Tenant[]> {
  return db.selectFrom('tenants').selectAll().orderBy('created_at').orderBy('tenant_id').execute();
}

/** Applies the changes and moves updated_at; undefined when there is no such tenant. */
export function updateTenant(
  tx: Executor,
  tenantId: string,
  changes: TenantChanges,
  now: Date,
): Promise<Tenant | undefined> {
  return tx
    .updateTable('tenants')
    .set({ ...changes, updated_at: now })
    .where('tenant_id', '=', tenantId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Replaces the tenant's signing secret with `sealed`; with `keepPrevious` until `previousExpiresAt`, the one it
 * replaces moves to the previous slot, otherwise the previous slot is emptied. Returns whether the tenant exists.
 */
export async function replaceSigningSecret(
  tx: Executor,
  tenantId: string,
  sealed: string,
  previousExpiresAt: Date | null,
  now: Date,
): Promise<boolean> {
  const rotated = await tx
    .updateTable('tenants')
    .set((eb) => ({
      previous_signing_secret: previousExpiresAt ? eb.ref('signing_secret') : null,
      previous_signing_secret_expires_at: previousExpiresAt,
      signing_secret: sealed,
      updated_at: now,
    }))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return Number(rotated.numUpdatedRows) > 0;
}

export async function insertApiKey(tx: Executor, values: Insertable<ApiKeysTable>): Promise<void> {
  await tx.insertInto('api_keys').values(values).execute();
}

/** Sets revoked_at to `now` unless the key was revoked already (the first revocation's time stays). */
export function revokeApiKey(tx: Executor, keyPrefix: string, now: Date) {
  return tx
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
    .where('key_prefix', '=', keyPrefix)
    .returning(['tenant_id', 'key_prefix', 'revoked_at'])
    .executeTakeFirst();
}

/** The owner of an event, whoever the tenant (the staff address events by id alone). */
export function findEventTenant(db: Executor, eventId: string) {
  return db.selectFrom('events').select(['tenant_id']).where('event_id', '=', eventId).executeTakeFirst();
}

/** The tenant's latest `limit` events with their delivery state, newest first. */
export function listDeliveryEvents(db: Executor, tenantId: string, limit: number) {
  return db
    .selectFrom('events')
    .select([
      'event_id',
      'event',
      'created_at',
      'delivery_status',
      'attempt_count',
      'next_attempt_at',
      'delivered_at',
    ])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('event_id', 'desc')
    .limit(limit)
    .execute();
}

/** Every delivery attempt of these events (ids the caller read for one tenant), in the order they were made. */
export function listDeliveryAttempts(db: Executor, eventIds: string[]) {
  return db
    .selectFrom('webhook_attempts')
    .select([
      'event_id',
      'attempt_number',
      'attempted_at',
      'url',
      'status_code',
      'latency_ms',
      'error',
      'outcome',
    ])
    .where('event_id', 'in', eventIds)
    .orderBy('attempt_id')
    .execute();
}

export function listTenantAudit(db: Executor, tenantId: string, limit: number) {
  return db
    .selectFrom('audit_log')
    .select(['audit_id', 'occurred_at', 'actor', 'action', 'request_id', 'details'])
    .where('tenant_id', '=', tenantId)
    .orderBy('audit_id', 'desc')
    .limit(limit)
    .execute();
}

/** The audit log across tenants (service-level entries included), optionally of one tenant or one action. */
export function listServiceAudit(
  db: Executor,
  query: { limit: number; tenant_id?: string | undefined; action?: string | undefined },
) {
  return db
    .selectFrom('audit_log')
    .select(['audit_id', 'tenant_id', 'occurred_at', 'actor', 'action', 'request_id', 'details'])
    .$if(query.tenant_id !== undefined, (qb) => qb.where('tenant_id', '=', query.tenant_id!))
    .$if(query.action !== undefined, (qb) => qb.where('action', '=', query.action!))
    .orderBy('audit_id', 'desc')
    .limit(query.limit)
    .execute();
}

export async function findSetting(db: Executor, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('service_settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value;
}

/** Stores the setting unless one exists; returns the value stored by this call, or undefined if it lost the race. */
export async function insertSettingOnce(
  db: Executor,
  name: string,
  value: string,
): Promise<string | undefined> {
  const inserted = await db
    .insertInto('service_settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('value')
    .executeTakeFirst();
  return inserted?.value;
}
