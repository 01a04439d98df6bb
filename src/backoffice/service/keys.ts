import { issueApiKey } from '../../platform/api-keys.js';
import { audit } from '../../platform/audit.js';
import type { Platform, ServiceContext } from '../../platform/context.js';
import type { KeyRole } from '../../platform/db/platform-tables.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { forTenant, withTransaction } from '../../platform/service-context.js';
import * as store from '../backoffice.store.js';
import { getTenant } from './tenants.js';

/** Issues a key of `role` for the tenant's environment; the key in clear is shown once. */
export async function issueKey(ctx: ServiceContext, tenantId: string, role: KeyRole) {
  const tenant = await getTenant(ctx, tenantId);
  const key = issueApiKey(tenant.environment);
  await withTransaction(forTenant(ctx, tenantId), async (tx, ctx) => {
    await store.insertApiKey(tx, {
      key_id: newId('key'),
      tenant_id: tenantId,
      key_prefix: key.keyPrefix,
      key_hash: key.keyHash,
      role,
      created_at: ctx.clock.now(),
    });
    await audit(tx, ctx, 'key.issued', { key_prefix: key.keyPrefix, role });
  });
  return { api_key: key.apiKey, key_prefix: key.keyPrefix, role };
}

/** Revokes a key at once; revoking it again keeps the first revocation's time. */
export async function revokeKey(platform: Platform, ctx: ServiceContext, keyPrefix: string) {
  const revoked = await withTransaction(ctx, async (tx, ctx) => {
    const key = await store.revokeApiKey(tx, keyPrefix, ctx.clock.now());
    if (!key) throw new AppError('key_not_found', `No API key with prefix ${keyPrefix}`);
    await audit(tx, forTenant(ctx, key.tenant_id), 'key.revoked', { key_prefix: keyPrefix });
    return { key_prefix: key.key_prefix, revoked_at: key.revoked_at! };
  });
  // After the commit: a request racing the change must not re-cache the old row. (Inside a caller's transaction
  // this runs before that commits: a racing request may keep the old row for API_KEY_CACHE_TTL_MS, as it may
  // after a change made through another process.)
  platform.apiKeys.clear();
  return revoked;
}
