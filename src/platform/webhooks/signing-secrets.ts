import type { FastifyBaseLogger } from 'fastify';
import type { Platform } from '../context.js';
import type { Executor } from '../db/database.js';
import type { Tenant } from '../db/platform-tables.js';
import { scheduleJob } from '../scheduler.js';
import { Secrets } from '../secrets.js';
import {
  deleteExpiredPreviousSecret,
  replaceStoredSigningSecret,
  selectStoredSigningSecrets,
} from './signing-secrets.store.js';

/** The HKDF purpose of the key that encrypts signing secrets at rest: no other use of the master key shares it. */
export const SIGNING_SECRET_PURPOSE = 'webhook-signing-secret';
/** Deletes a rotated-out secret once its overlap has ended (one job per tenant, due at the end of the overlap). */
export const PREVIOUS_SECRET_EXPIRY_JOB = 'webhook.previous_signing_secret_expiry';

type SigningSecretColumns = Pick<
  Tenant,
  'signing_secret' | 'previous_signing_secret' | 'previous_signing_secret_expires_at'
>;

/** What tenants.signing_secret and previous_signing_secret hold: the whsec_… secret, encrypted. */
export function sealSigningSecret(secrets: Secrets, secret: string): string {
  return secrets.encrypt(SIGNING_SECRET_PURPOSE, secret);
}

/** The whsec_… secret of a stored value. A row no start-up has encrypted yet (written by an older release) is read as is. */
export function openSigningSecret(secrets: Secrets, stored: string): string {
  return Secrets.isEncrypted(stored) ? secrets.decrypt(SIGNING_SECRET_PURPOSE, stored) : stored;
}

/**
 * The secrets a delivery is signed with at `now` (the service clock): the current one, then the one a rotation
 * replaced while its overlap lasts. Past the overlap it no longer signs, whether or not its row is deleted yet.
 */
export function signingSecretsAt(secrets: Secrets, tenant: SigningSecretColumns, now: Date): string[] {
  const current = openSigningSecret(secrets, tenant.signing_secret);
  const previous = tenant.previous_signing_secret;
  const expiresAt = tenant.previous_signing_secret_expires_at;
  if (previous === null || expiresAt === null || expiresAt.getTime() <= now.getTime()) return [current];
  return [current, openSigningSecret(secrets, previous)];
}

/**
 * Encrypts the signing secrets stored in plain text (rows from before encryption at rest), and refuses to start
 * with a key that opens none of the encrypted ones (a COMPLIANCE_SECRETS_KEY other than the one they were sealed
 * with). Each row is a compare-and-set on its plaintext, so every process may run this at start, at once, and a
 * second run changes nothing. Returns how many rows it encrypted.
 */
export async function encryptStoredSigningSecrets(
  db: Executor,
  secrets: Secrets,
  log: FastifyBaseLogger,
): Promise<number> {
  const rows = await selectStoredSigningSecrets(db);
  const encrypted = rows.filter((row) => Secrets.isEncrypted(row.signing_secret));
  const unreadable = encrypted.filter((row) => {
    try {
      openSigningSecret(secrets, row.signing_secret);
      return false;
    } catch {
      return true;
    }
  });
  if (encrypted.length > 0 && unreadable.length === encrypted.length) {
    throw new Error(
      'COMPLIANCE_SECRETS_KEY does not decrypt the signing secrets stored in this database: start with the key they were encrypted with',
    );
  }
  let sealed = 0;
  for (const row of rows.filter((r) => !Secrets.isEncrypted(r.signing_secret))) {
    sealed += await replaceStoredSigningSecret(
      db,
      row.tenant_id,
      row.signing_secret,
      sealSigningSecret(secrets, row.signing_secret),
    );
  }
  if (unreadable.length > 0) {
    log.error({ tenant_ids: unreadable.map((r) => r.tenant_id) }, 'signing secrets that do not decrypt');
  }
  if (sealed > 0) log.info({ tenants: sealed }, 'encrypted the signing secrets stored in plain text');
  return sealed;
}

/** The job that deletes a rotated-out secret when its overlap ends (scheduled by each rotation, service clock). */
export function registerSigningSecretJobs(platform: Platform): void {
  platform.scheduler.register(PREVIOUS_SECRET_EXPIRY_JOB, async (tx, job, now) => {
    await deleteExpiredPreviousSecret(tx, job.subject_id, now);
  });
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
