import { issueApiKey, issueSigningSecret } from '../../platform/api-keys.js';
import { recordAudit } from '../../platform/audit.js';
import type { Platform } from '../../platform/context.js';
import type { Transaction } from 'kysely';
import type {
  Environment,
  RateLimitOverrides,
  Tenant,
  VendorArea,
} from '../../platform/db/platform-tables.js';
import type { DB } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { sealSigningSecret } from '../../platform/webhooks/signing-secrets.js';
import * as store from '../backoffice.store.js';

/** The staff's verbs on tenants. Each mutation is written to the tenant's audit log in its own transaction. */
export const ACTOR = 'backoffice';

export interface CreatedTenant {
  tenant: Tenant;
  apiKey: string;
  /** The whsec_… secret in clear, to show once: the row holds it encrypted. */
  signingSecret: string;
}

/** A new tenant, active, with one standard key and a signing secret; no webhook destination yet. */
export async function createTenant(
  platform: Platform,
  input: { name: string; environment: Environment },
  requestId: string | null,
): Promise<CreatedTenant> {
  const now = platform.clock.now();
  const tenantId = newId('tenant');
  const key = issueApiKey(input.environment);
  const signingSecret = issueSigningSecret();
  const tenant = await platform.db.transaction().execute(async (tx) => {
    const tenant = await store.insertTenant(tx, {
      tenant_id: tenantId,
      name: input.name,
      environment: input.environment,
      status: 'active',
      signing_secret: sealSigningSecret(platform.secrets, signingSecret),
      previous_signing_secret: null,
      previous_signing_secret_expires_at: null,
      webhook_url: null,
      cutover_areas: JSON.stringify([]),
      rate_limits: JSON.stringify({}),
      created_at: now,
      updated_at: now,
    });
    await store.insertApiKey(tx, {
      key_id: newId('key'),
      tenant_id: tenantId,
      key_prefix: key.keyPrefix,
      key_hash: key.keyHash,
      role: 'standard',
      created_at: now,
    });
    await recordAudit(tx, {
      tenantId,
      actor: ACTOR,
      action: 'tenant.created',
      requestId,
      details: { name: input.name, environment: input.environment, key_prefix: key.keyPrefix },
      at: now,
    });
    return tenant;
  });
  return { tenant, apiKey: key.apiKey, signingSecret };
}

export async function getTenant(platform: Platform, tenantId: string): Promise<Tenant> {
  const tenant = await store.findTenant(platform.db, tenantId);
  if (!tenant) throw new AppError('tenant_not_found', 404, `No tenant ${tenantId}`);
  return tenant;
}

export function listTenants(platform: Platform): Promise<Tenant[]> {
  return store.listTenants(platform.db);
}

/**
 * Changes a tenant and writes the audit row (and anything `alsoInTransaction` adds) in one transaction; the API-key
 * cache is cleared after the commit, so a request racing the change cannot re-cache the old row.
 */
export async function updateTenant(
  platform: Platform,
  tenantId: string,
  changes: store.TenantChanges,
  audit: { action: string; details: Record<string, unknown>; requestId: string | null },
  alsoInTransaction?: (tx: Transaction<DB>, now: Date) => Promise<unknown>,
): Promise<Tenant> {
  const now = platform.clock.now();
  const updated = await platform.db.transaction().execute(async (tx) => {
    const tenant = await store.updateTenant(tx, tenantId, changes, now);
    if (!tenant) throw new AppError('tenant_not_found', 404, `No tenant ${tenantId}`);
    await recordAudit(tx, { tenantId, actor: ACTOR, at: now, ...audit });
    await alsoInTransaction?.(tx, now);
    return tenant;
  });
  platform.apiKeys.clear();
  return updated;
}

export const suspendTenant = (platform: Platform, tenantId: string, requestId: string | null) =>
  updateTenant(
    platform,
    tenantId,
    { status: 'suspended' },
    { action: 'tenant.suspended', details: {}, requestId },
  );

export const reinstateTenant = (platform: Platform, tenantId: string, requestId: string | null) =>
  updateTenant(
    platform,
    tenantId,
    { status: 'active' },
    { action: 'tenant.reinstated', details: {}, requestId },
  );

/** Which areas use production vendors; only a live tenant is cut over. */
export async function setCutover(
  platform: Platform,
  tenantId: string,
  areas: VendorArea[],
  requestId: string | null,
) {
  const tenant = await getTenant(platform, tenantId);
  if (tenant.environment !== 'live' && areas.length > 0) {
    throw new AppError('invalid_request', 400, 'Only live tenants are cut over to production vendors');
  }
  const unique = [...new Set(areas)].sort();
  return updateTenant(
    platform,
    tenantId,
    { cutover_areas: JSON.stringify(unique) },
    { action: 'cutover.changed', details: { areas: unique }, requestId },
  );
}

/** Merges the overrides into the tenant's rate limits (a bucket not named keeps its value). */
export async function setRateLimits(
  platform: Platform,
  tenantId: string,
  overrides: RateLimitOverrides,
  requestId: string | null,
) {
  const tenant = await getTenant(platform, tenantId);
  const merged = { ...tenant.rate_limits, ...overrides };
  return updateTenant(
    platform,
    tenantId,
    { rate_limits: JSON.stringify(merged) },
    { action: 'rate_limits.changed', details: merged, requestId },
  );
}
