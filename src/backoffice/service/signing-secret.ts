import { issueSigningSecret } from '../../platform/api-keys.js';
import { audit } from '../../platform/audit.js';
import type { Platform, ServiceContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { cancelJob } from '../../platform/scheduler.js';
import { forTenant, withTransaction } from '../../platform/service-context.js';
import {
  PREVIOUS_SECRET_EXPIRY_JOB,
  schedulePreviousSecretExpiry,
  sealSigningSecret,
} from '../../platform/webhooks/signing-secrets.js';
import * as store from '../backoffice.store.js';

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
 * Replaces a tenant's signing secret. For `overlapHours` on the service clock (DEFAULT_OVERLAP_HOURS when not
 * given), deliveries carry a signature by the old secret and one by the new, so the tenant can switch its receiver
 * without losing an event; then the old one is deleted (a scheduled job at the end of the overlap). A rotation
 * during an overlap keeps only the secret it replaces: the one before that stops signing at once. Audited in the
 * tenant's log, never with a secret.
 */
export async function rotateSigningSecret(
  platform: Platform,
  ctx: ServiceContext,
  tenantId: string,
  overlapHours: number | undefined,
): Promise<RotatedSigningSecret> {
  const overlap = overlapHours ?? DEFAULT_OVERLAP_HOURS;
  const now = ctx.clock.now();
  const secret = issueSigningSecret();
  const expiresAt = overlap > 0 ? new Date(now.getTime() + overlap * HOUR_MS) : null;
  await withTransaction(forTenant(ctx, tenantId), async (tx, ctx) => {
    const sealed = sealSigningSecret(platform.secrets, tenantId, secret);
    if (!(await store.replaceSigningSecret(tx, tenantId, sealed, expiresAt, now)))
      throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
    if (expiresAt) await schedulePreviousSecretExpiry(tx, tenantId, expiresAt);
    else await cancelJob(tx, PREVIOUS_SECRET_EXPIRY_JOB, tenantId);
    await audit(tx, ctx, 'webhook.signing_secret_rotated', {
      overlap_hours: overlap,
      previous_secret_expires_at: expiresAt?.toISOString() ?? null,
    });
  });
  return { tenant_id: tenantId, signing_secret: secret, previous_secret_expires_at: expiresAt };
}
