import { issueApiKey } from '../../platform/api-keys.js';
import { recordAudit } from '../../platform/audit.js';
import type { Platform } from '../../platform/context.js';
import type { KeyRole } from '../../platform/db/platform-tables.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import * as store from '../backoffice.store.js';
import { ACTOR, getTenant } from './tenants.js';

/** Issues a key of `role` for the tenant's environment; the key in clear is shown once. */
export async function issueKey(
  platform: Platform,
  tenantId: string,
  role: KeyRole,
  requestId: string | null,
) {
  const tenant = await getTenant(platform, tenantId);
  const now = platform.clock.now();
  const key = issueApiKey(tenant.environment);
  await platform.db.transaction().execute(async (tx) => {
    await store.insertApiKey(tx, {
      key_id: newId('key'),
      tenant_id: tenantId,
      key_prefix: key.keyPrefix,
      key_hash: key.keyHash,
      role,
      created_at: now,
    });
    await recordAudit(tx, {
      tenantId,
      actor: ACTOR,
      action: 'key.issued',
      requestId,
      details: { key_prefix: key.keyPrefix, role },
      at: now,
    });
  });
  return { api_key: key.apiKey, key_prefix: key.keyPrefix, role };
}

/** Revokes a key at once; revoking it again keeps the first revocation's time. */
export async function revokeKey(platform: Platform, keyPrefix: string, requestId: string | null) {
  const now = platform.clock.now();
  const revoked = await platform.db.transaction().execute(async (tx) => {
    const key = await store.revokeApiKey(tx, keyPrefix, now);
    if (!key) throw new AppError('key_not_found', 404, `No API key with prefix ${keyPrefix}`);
    await recordAudit(tx, {
      tenantId: key.tenant_id,
      actor: ACTOR,
      action: 'key.revoked',
      requestId,
      details: { key_prefix: keyPrefix },
      at: now,
    });
    return { key_prefix: key.key_prefix, revoked_at: key.revoked_at! };
  });
  // After the commit: a request racing the change must not re-cache the old row.
  platform.apiKeys.clear();
  return revoked;
}
