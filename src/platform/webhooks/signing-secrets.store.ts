import type { Transaction } from 'kysely';
import type { Executor } from '../db/database.js';
import type { DB } from '../db/schema.js';

/** Every tenant's stored signing secret, as stored (encrypted or, from an older release, not). */
export function selectStoredSigningSecrets(
  db: Executor,
): Promise<{ tenant_id: string; signing_secret: string }[]> {
  return db.selectFrom('tenants').select(['tenant_id', 'signing_secret']).execute();
}

/** Compare-and-set of a tenant's stored secret: replaced only while it still holds `from`; returns rows changed. */
export async function replaceStoredSigningSecret(
  db: Executor,
  tenantId: string,
  from: string,
  to: string,
): Promise<number> {
  const result = await db
    .updateTable('tenants')
    .set({ signing_secret: to })
    .where('tenant_id', '=', tenantId)
    .where('signing_secret', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes the tenant's rotated-out secret if its overlap has ended by `now`. */
export async function deleteExpiredPreviousSecret(
  tx: Transaction<DB>,
  tenantId: string,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('tenants')
    .set({ previous_signing_secret: null, previous_signing_secret_expires_at: null })
    .where('tenant_id', '=', tenantId)
    .where('previous_signing_secret_expires_at', '<=', now)
    .execute();
}
