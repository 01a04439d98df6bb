import { issueSigningSecret } from '../platform/api-keys.js';
import { recordAudit } from '../platform/audit.js';
import type { Platform } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { cancelJob } from '../platform/scheduler.js';
import {
  PREVIOUS_SECRET_EXPIRY_JOB,
  schedulePreviousSecretExpiry,
  sealSigningSecret,
} from '../platform/webhooks/signing-secrets.js';

/** How long a rotated-out secret keeps signing beside the new one unless the staff say otherwise. */
export const DEFAULT_OVERLAP_HOURS = 24;
const HOUR_MS = 3_600_000;

export interface RotatedSigningSecret {
  tenant_id: string;
  /** The new whsec_… secret, shown once: the row holds it encrypted. */
  signing_secret: string;
  /** Until when deliveries also carry a signature by the secret it replaced; null when the overlap is 0. */
  previous_secret_expires_at: Date | null;
}

/**
 * Replaces a tenant's signing secret. For `overlapHours` on the service clock, deliveries carry a signature by the
 * old secret and one by the new, so the tenant can switch its receiver without losing an event; then the old one
 * is deleted (a scheduled job at the end of the overlap). A rotation during an overlap keeps only the secret it
 * replaces: the one before that stops signing at once. Audited in the tenant's log, never with a secret.
 */
export async function rotateSigningSecret(
  platform: Platform,
  tenantId: string,
  overlapHours: number,
  requestId: string | null,
): Promise<RotatedSigningSecret> {
  const now = platform.clock.now();
  const secret = issueSigningSecret();
  const expiresAt = overlapHours > 0 ? new Date(now.getTime() + overlapHours * HOUR_MS) : null;
  await platform.db.transaction().execute(async (tx) => {
    const rotated = await tx
      .updateTable('tenants')
      .set((eb) => ({
        previous_signing_secret: expiresAt ? eb.ref('signing_secret') : null,
        previous_signing_secret_expires_at: expiresAt,
        signing_secret: sealSigningSecret(platform.secrets, secret),
        updated_at: now,
      }))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    if (Number(rotated.numUpdatedRows) === 0)
      throw new AppError('tenant_not_found', 404, `No tenant ${tenantId}`);
    if (expiresAt) await schedulePreviousSecretExpiry(tx, tenantId, expiresAt);
    else await cancelJob(tx, PREVIOUS_SECRET_EXPIRY_JOB, tenantId);
    await recordAudit(tx, {
      tenantId,
      actor: 'backoffice',
      action: 'webhook.signing_secret_rotated',
      requestId,
      details: { overlap_hours: overlapHours, previous_secret_expires_at: expiresAt?.toISOString() ?? null },
      at: now,
    });
  });
  return { tenant_id: tenantId, signing_secret: secret, previous_secret_expires_at: expiresAt };
}
