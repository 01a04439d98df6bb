import { recordAudit } from '../audit.js';
import type { Platform } from '../context.js';
import { AppError } from '../errors.js';
import { REDELIVERY_HORIZON_DAYS, WebhookDispatcher, type RequeuedStatus } from './dispatcher.js';

/** The staff's verbs to recover a tenant's deliveries after an outage (back office and CLI). */
const ACTOR = 'backoffice';
const DAY_MS = 86_400_000;

/** What redelivery and re-enabling leave undelivered otherwise: events that ran out of attempts or had nowhere to go. */
const UNDELIVERED: readonly RequeuedStatus[] = ['failed', 'no_destination'];

export interface RequeuedEvents {
  tenant_id: string;
  since: Date;
  requeued: number;
}

async function destinationOf(platform: Platform, tenantId: string) {
  const tenant = await platform.db
    .selectFrom('tenants')
    .select(['tenant_id', 'webhook_url', 'webhook_disabled_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!tenant) throw new AppError('tenant_not_found', 404, `No tenant ${tenantId}`);
  if (!tenant.webhook_url) {
    throw new AppError('invalid_webhook_url', 400, 'The tenant has no webhook destination registered');
  }
  return tenant;
}

/**
 * Queues again every event of the tenant produced since `since` that is not delivered (failed, no destination, or
 * waiting for a retry), oldest first, each with a fresh schedule. A disabled destination is enabled by it: the
 * staff redeliver once the tenant's endpoint answers again.
 */
export async function redeliverSince(
  platform: Platform,
  tenantId: string,
  since: Date,
  requestId: string | null,
): Promise<RequeuedEvents> {
  const tenant = await destinationOf(platform, tenantId);
  const now = platform.clock.now();
  const requeued = await platform.db.transaction().execute(async (tx) => {
    if (tenant.webhook_disabled_at) {
      await tx
        .updateTable('tenants')
        .set({ webhook_disabled_at: null })
        .where('tenant_id', '=', tenantId)
        .execute();
    }
    const requeued = await WebhookDispatcher.requeueSince(tx, {
      tenantId,
      since,
      now,
      statuses: [...UNDELIVERED, 'pending'],
    });
    await recordAudit(tx, {
      tenantId,
      actor: ACTOR,
      action: 'webhook.redeliver_since',
      requestId,
      details: { since: since.toISOString(), requeued, enabled: tenant.webhook_disabled_at !== null },
      at: now,
    });
    return requeued;
  });
  return { tenant_id: tenantId, since, requeued };
}

/**
 * Enables a destination disabled for failing past the retry schedule, and queues again, oldest first, what it
 * left undelivered within the redelivery horizon.
 */
export async function enableDestination(
  platform: Platform,
  tenantId: string,
  requestId: string | null,
): Promise<RequeuedEvents> {
  await destinationOf(platform, tenantId);
  const now = platform.clock.now();
  const since = new Date(now.getTime() - REDELIVERY_HORIZON_DAYS * DAY_MS);
  const requeued = await platform.db.transaction().execute(async (tx) => {
    await tx
      .updateTable('tenants')
      .set({ webhook_disabled_at: null })
      .where('tenant_id', '=', tenantId)
      .execute();
    const requeued = await WebhookDispatcher.requeueSince(tx, {
      tenantId,
      since,
      now,
      statuses: UNDELIVERED,
    });
    await recordAudit(tx, {
      tenantId,
      actor: ACTOR,
      action: 'webhook.enabled',
      requestId,
      details: { requeued },
      at: now,
    });
    return requeued;
  });
  return { tenant_id: tenantId, since, requeued };
}

/**
 * After a destination is registered: the events stored meanwhile without one (or held by a disabled one) within
 * the redelivery horizon go to it, oldest first. Pass the transaction that registers it.
 */
export function requeueForNewDestination(
  tx: Parameters<typeof WebhookDispatcher.requeueSince>[0],
  tenantId: string,
  now: Date,
): Promise<number> {
  const since = new Date(now.getTime() - REDELIVERY_HORIZON_DAYS * DAY_MS);
  return WebhookDispatcher.requeueSince(tx, { tenantId, since, now, statuses: UNDELIVERED });
}
