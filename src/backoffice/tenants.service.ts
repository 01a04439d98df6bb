import { issueApiKey, issueSigningSecret } from '../platform/api-keys.js';
import { recordAudit } from '../platform/audit.js';
import type { Platform } from '../platform/context.js';
import type {
  Environment,
  KeyRole,
  RateLimitOverrides,
  Tenant,
  VendorArea,
} from '../platform/db/platform-tables.js';
import { AppError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { emitEvent } from '../platform/outbox.js';
import { assertDeliverableUrl } from '../platform/webhooks/destination.js';
import { WebhookDispatcher } from '../platform/webhooks/dispatcher.js';
import { sealSigningSecret } from '../platform/webhooks/signing-secrets.js';
import { requeueForNewDestination } from '../platform/webhooks/recovery.js';
import type { Transaction } from 'kysely';
import type { DB } from '../platform/db/schema.js';

/** The staff's verbs on tenants. Each mutation is written to the tenant's audit log in its own transaction. */
const ACTOR = 'backoffice';

export interface CreatedTenant {
  tenant: Tenant;
  apiKey: string;
  /** The whsec_… secret in clear, to show once: the row holds it encrypted. */
  signingSecret: string;
}

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
    const tenant = await tx
      .insertInto('tenants')
      .values({
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
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('api_keys')
      .values({
        key_id: newId('key'),
        tenant_id: tenantId,
        key_prefix: key.keyPrefix,
        key_hash: key.keyHash,
        role: 'standard',
        created_at: now,
      })
      .execute();
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
  const tenant = await platform.db
    .selectFrom('tenants')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!tenant) throw new AppError('tenant_not_found', 404, `No tenant ${tenantId}`);
  return tenant;
}

export function listTenants(platform: Platform): Promise<Tenant[]> {
  return platform.db.selectFrom('tenants').selectAll().orderBy('created_at').orderBy('tenant_id').execute();
}

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
    await tx
      .insertInto('api_keys')
      .values({
        key_id: newId('key'),
        tenant_id: tenantId,
        key_prefix: key.keyPrefix,
        key_hash: key.keyHash,
        role,
        created_at: now,
      })
      .execute();
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

export async function revokeKey(platform: Platform, keyPrefix: string, requestId: string | null) {
  const now = platform.clock.now();
  const revoked = await platform.db.transaction().execute(async (tx) => {
    const key = await tx
      .updateTable('api_keys')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
      .where('key_prefix', '=', keyPrefix)
      .returning(['tenant_id', 'key_prefix', 'revoked_at'])
      .executeTakeFirst();
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

async function updateTenant(
  platform: Platform,
  tenantId: string,
  changes: Partial<{
    status: Tenant['status'];
    webhook_url: string | null;
    webhook_disabled_at: Date | null;
    cutover_areas: string;
    rate_limits: string;
  }>,
  audit: { action: string; details: Record<string, unknown>; requestId: string | null },
  alsoInTransaction?: (tx: Transaction<DB>, now: Date) => Promise<unknown>,
): Promise<Tenant> {
  const now = platform.clock.now();
  const updated = await platform.db.transaction().execute(async (tx) => {
    const tenant = await tx
      .updateTable('tenants')
      .set({ ...changes, updated_at: now })
      .where('tenant_id', '=', tenantId)
      .returningAll()
      .executeTakeFirst();
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

export async function setWebhookUrl(
  platform: Platform,
  tenantId: string,
  url: string,
  requestId: string | null,
) {
  const tenant = await getTenant(platform, tenantId);
  const checked = await assertDeliverableUrl(url, tenant.environment, {
    allowPrivate: platform.config.allowPrivateWebhooks,
  });
  // A new destination starts enabled, and receives what waited for one (docs/webhooks.md).
  return updateTenant(
    platform,
    tenantId,
    { webhook_url: checked.toString(), webhook_disabled_at: null },
    { action: 'webhook.registered', details: { url: checked.toString() }, requestId },
    (tx, now) => requeueForNewDestination(tx, tenantId, now),
  );
}

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

/** Enqueues a signed `ping` event to the tenant's webhook destination (onboarding and tests). */
export async function pingWebhook(platform: Platform, tenantId: string, requestId: string | null) {
  const tenant = await getTenant(platform, tenantId);
  if (!tenant.webhook_url) {
    throw new AppError('invalid_webhook_url', 400, 'The tenant has no webhook destination registered');
  }
  const now = platform.clock.now();
  const [envelope] = await platform.db.transaction().execute(async (tx) => {
    await recordAudit(tx, {
      tenantId,
      actor: ACTOR,
      action: 'webhook.ping',
      details: {},
      requestId,
      at: now,
    });
    return emitEvent(tx, { tenantIds: tenantId, event: 'ping', data: { tenant_id: tenantId }, at: now });
  });
  return envelope!;
}

export async function redeliverEvent(platform: Platform, eventId: string, requestId: string | null) {
  const event = await platform.db
    .selectFrom('events')
    .select(['tenant_id'])
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!event) throw new AppError('event_not_found', 404, `No event ${eventId}`);
  const now = platform.clock.now();
  await WebhookDispatcher.redeliver(platform.db, eventId, now);
  await recordAudit(platform.db, {
    tenantId: event.tenant_id,
    actor: ACTOR,
    action: 'webhook.redeliver',
    details: { event_id: eventId },
    requestId,
    at: now,
  });
  return { event_id: eventId, delivery_status: 'pending' as const };
}

export async function listDeliveries(platform: Platform, tenantId: string, limit: number) {
  await getTenant(platform, tenantId);
  const events = await platform.db
    .selectFrom('events')
    .select([
      'event_id',
      'event',
      'created_at',
      'delivery_status',
      'attempt_count',
      'next_attempt_at',
      'delivered_at',
    ])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('event_id', 'desc')
    .limit(limit)
    .execute();
  const attempts = events.length
    ? await platform.db
        .selectFrom('webhook_attempts')
        .select([
          'event_id',
          'attempt_number',
          'attempted_at',
          'url',
          'status_code',
          'latency_ms',
          'error',
          'outcome',
        ])
        .where(
          'event_id',
          'in',
          events.map((e) => e.event_id),
        )
        .orderBy('attempt_id')
        .execute()
    : [];
  return events.map((event) => ({
    ...event,
    attempts: attempts.filter((a) => a.event_id === event.event_id).map(({ event_id: _e, ...a }) => a),
  }));
}

export async function auditLog(platform: Platform, tenantId: string, limit: number) {
  await getTenant(platform, tenantId);
  return platform.db
    .selectFrom('audit_log')
    .select(['audit_id', 'occurred_at', 'actor', 'action', 'request_id', 'details'])
    .where('tenant_id', '=', tenantId)
    .orderBy('audit_id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The audit log across tenants, newest first: staff actions on what belongs to no tenant (`tenant_id` null, such
 * as voiding a regulator row) and every tenant's entries, filtered by tenant and action.
 */
export function serviceAuditLog(
  platform: Platform,
  query: { limit: number; tenant_id?: string | undefined; action?: string | undefined },
) {
  return platform.db
    .selectFrom('audit_log')
    .select(['audit_id', 'tenant_id', 'occurred_at', 'actor', 'action', 'request_id', 'details'])
    .$if(query.tenant_id !== undefined, (qb) => qb.where('tenant_id', '=', query.tenant_id!))
    .$if(query.action !== undefined, (qb) => qb.where('action', '=', query.action!))
    .orderBy('audit_id', 'desc')
    .limit(query.limit)
    .execute();
}
