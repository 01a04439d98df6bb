import { normaliseOrigin } from '../../areas/embeds/index.js';
import { issueApiKey, issueSigningSecret } from '../../platform/api-keys.js';
import { audit } from '../../platform/audit.js';
import type { Platform, ServiceContext } from '../../platform/context.js';
import type { Transaction } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type {
  Environment,
  RateLimitOverrides,
  Tenant,
  VendorArea,
} from '../../platform/db/platform-tables.js';
import type { DB } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { forTenant, withTransaction } from '../../platform/service-context.js';
import { sealSigningSecret } from '../../platform/webhooks/signing-secrets.js';
import * as store from '../backoffice.store.js';
import { findTenant } from '../../platform/tenants.store.js';

/** The staff's verbs on tenants. Each change commits with its row in the tenant's audit log. */

export interface CreatedTenant {
  tenant: Tenant;
  apiKey: string;
  /** The whsec_… secret in clear, to show once: the row holds it encrypted. */
  signingSecret: string;
}

/** A new tenant, active, with one standard key and a signing secret; no webhook destination yet. */
export async function createTenant(
  platform: Platform,
  ctx: ServiceContext,
  input: { name: string; environment: Environment },
): Promise<CreatedTenant> {
  const tenantId = newId('tenant');
  const key = issueApiKey(input.environment);
  const signingSecret = issueSigningSecret();
  const tenant = await withTransaction(forTenant(ctx, tenantId), async (tx, ctx) => {
    const now = ctx.clock.now();
    const tenant = await store.insertTenant(tx, {
      tenant_id: tenantId,
      name: input.name,
      environment: input.environment,
      status: 'active',
      signing_secret: sealSigningSecret(platform.secrets, tenantId, signingSecret),
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
    await audit(tx, ctx, 'tenant.created', {
      name: input.name,
      environment: input.environment,
      key_prefix: key.keyPrefix,
    });
    return tenant;
  });
  return { tenant, apiKey: key.apiKey, signingSecret };
}

/** Reads through `from.db`: the platform's database, or a verb's context (and so its transaction, if any). */
export async function getTenant(from: { db: Executor }, tenantId: string): Promise<Tenant> {
  const tenant = await findTenant(from.db, tenantId);
  if (!tenant) throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
  return tenant;
}

export function listTenants(platform: Platform): Promise<Tenant[]> {
  return store.listTenants(platform.db);
}

/**
 * Changes a tenant and writes the audit row (and anything `alsoInTransaction` adds) in one transaction; the API-key
 * cache is cleared after the commit, so a request racing the change cannot re-cache the old row. (Inside a caller's
 * transaction it is cleared before that commits: a racing request may keep the old row for API_KEY_CACHE_TTL_MS,
 * as it may after a change made through another process.)
 */
export async function updateTenant(
  platform: Platform,
  ctx: ServiceContext,
  tenantId: string,
  changes: store.TenantChanges,
  audited: { action: string; details: Record<string, unknown> },
  alsoInTransaction?: (tx: Transaction<DB>, now: Date) => Promise<unknown>,
): Promise<Tenant> {
  const updated = await withTransaction(forTenant(ctx, tenantId), async (tx, ctx) => {
    const now = ctx.clock.now();
    const tenant = await store.updateTenant(tx, tenantId, changes, now);
    if (!tenant) throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
    await audit(tx, ctx, audited.action, audited.details);
    await alsoInTransaction?.(tx, now);
    return tenant;
  });
  platform.apiKeys.clear();
  return updated;
}

export const suspendTenant = (platform: Platform, ctx: ServiceContext, tenantId: string) =>
  updateTenant(platform, ctx, tenantId, { status: 'suspended' }, { action: 'tenant.suspended', details: {} });

export const reinstateTenant = (platform: Platform, ctx: ServiceContext, tenantId: string) =>
  updateTenant(platform, ctx, tenantId, { status: 'active' }, { action: 'tenant.reinstated', details: {} });

/** Which areas use production vendors; only a live tenant is cut over. */
export async function setCutover(
  platform: Platform,
  ctx: ServiceContext,
  tenantId: string,
  areas: VendorArea[],
) {
  const tenant = await getTenant(ctx, tenantId);
  if (tenant.environment !== 'live' && areas.length > 0) {
    throw new AppError('invalid_request', 'Only live tenants are cut over to production vendors');
  }
  const unique = [...new Set(areas)].sort();
  return updateTenant(
    platform,
    ctx,
    tenantId,
    { cutover_areas: JSON.stringify(unique) },
    { action: 'cutover.changed', details: { areas: unique } },
  );
}

/** Merges the overrides into the tenant's rate limits (a bucket not named keeps its value). */
export async function setRateLimits(
  platform: Platform,
  ctx: ServiceContext,
  tenantId: string,
  overrides: RateLimitOverrides,
) {
  const tenant = await getTenant(ctx, tenantId);
  const merged = { ...tenant.rate_limits, ...overrides };
  return updateTenant(
    platform,
    ctx,
    tenantId,
    { rate_limits: JSON.stringify(merged) },
    { action: 'rate_limits.changed', details: merged },
  );
}

/** Replaces the origins allowed to frame the tenant's hosted embeds; an empty list means no site may frame them. */
export function setEmbedOrigins(
  platform: Platform,
  ctx: ServiceContext,
  tenantId: string,
  origins: string[],
) {
  const unique = [...new Set(origins.map(normaliseOrigin))].sort();
  return updateTenant(
    platform,
    ctx,
    tenantId,
    { embed_origins: JSON.stringify(unique) },
    { action: 'embed_origins.changed', details: { origins: unique } },
  );
}
