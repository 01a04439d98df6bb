import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

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
