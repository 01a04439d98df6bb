import type { Executor } from '../db/database.js';
import type { Tenant } from '../db/platform-tables.js';
import { scheduleJob } from '../scheduler.js';
import { SEALED_PURPOSES, Secrets } from '../secrets.js';

/** Deletes a rotated-out secret once its overlap has ended (one job per tenant, due at the end of the overlap). */
export const PREVIOUS_SECRET_EXPIRY_JOB = 'webhook.previous_signing_secret_expiry';

type SigningSecretColumns = Pick<
  Tenant,
  'tenant_id' | 'signing_secret' | 'previous_signing_secret' | 'previous_signing_secret_expires_at'
>;

/**
 * What tenants.signing_secret and previous_signing_secret hold: the whsec_… secret, encrypted and bound to the
 * tenant's row (a rotation moves the current value to previous_signing_secret of the same row, which still opens).
 */
export function sealSigningSecret(secrets: Secrets, tenantId: string, secret: string): string {
  return secrets.encrypt(SEALED_PURPOSES.signingSecret, tenantId, secret);
}

/**
 * The whsec_… secret of a stored value. A row an older release stored in plain text is read as it is until the
 * re-encryption job rewrites it (platform/key-rotation.ts).
 */
export function openSigningSecret(secrets: Secrets, tenantId: string, stored: string): string {
  return Secrets.isEncrypted(stored)
    ? secrets.decrypt(SEALED_PURPOSES.signingSecret, tenantId, stored)
    : stored;
}

/**
 * The secrets a delivery is signed with at `now` (the service clock): the current one, then the one a rotation
 * replaced while its overlap lasts. Past the overlap it no longer signs, whether or not its row is deleted yet.
 */
export function signingSecretsAt(secrets: Secrets, tenant: SigningSecretColumns, now: Date): string[] {
  const current = openSigningSecret(secrets, tenant.tenant_id, tenant.signing_secret);
  const previous = tenant.previous_signing_secret;
  const expiresAt = tenant.previous_signing_secret_expires_at;
  if (previous === null || expiresAt === null || expiresAt.getTime() <= now.getTime()) return [current];
  return [current, openSigningSecret(secrets, tenant.tenant_id, previous)];
}

/** Schedules the deletion of a tenant's rotated-out secret at the end of its overlap. */
export function schedulePreviousSecretExpiry(db: Executor, tenantId: string, expiresAt: Date): Promise<void> {
  return scheduleJob(db, {
    kind: PREVIOUS_SECRET_EXPIRY_JOB,
    subjectId: tenantId,
    tenantId,
    dueAt: expiresAt,
  });
}
