import { recordAudit } from '../audit.js';
import type { Platform } from '../context.js';
import { AppError } from '../errors.js';
import { REDELIVERY_HORIZON_DAYS, WebhookDispatcher, type RequeuedStatus } from './dispatcher.js';
import { enableDestinationOf, findDestination } from './recovery.store.js';

/** The staff's verbs to recover a tenant's deliveries after an outage (back office and CLI). */
const ACTOR = 'backoffice';
const DAY_MS = 86_400_000;

/** What redelivery and re-enabling leave undelivered otherwise: events that ran out of attempts or had nowhere to go. */
const UNDELIVERED: readonly RequeuedStatus[] = ['failed', 'no_destination'];

/** The oldest time re-enabling or registering a destination reaches back to. */
const horizonStart = (now: Date) => new Date(now.getTime() - REDELIVERY_HORIZON_DAYS * DAY_MS);

export interface RequeuedEvents {
  tenant_id: string;
  since: Date;
  requeued: number;
}

async function destinationOf(platform: Platform, tenantId: string) {
  const tenant = await findDestination(platform.db, tenantId);
  if (!tenant) throw new AppError('tenant_not_found', 404, `No tenant ${tenantId}`);
  if (!tenant.webhook_url) {
    throw new AppError('invalid_webhook_url', 400, 'The tenant has no webhook destination registered');
  }
  return tenant;
}

/**
 * Enables the tenant's destination if it was disabled, and queues again, from a fresh schedule and oldest first, its
 * events since `since` in these statuses; audited as `action` in the same transaction.
 */
async function enableAndRequeue(
  platform: Platform,
  tenantId: string,
  requestId: string | null,
  requeue: { since: Date; statuses: readonly RequeuedStatus[]; action: string },
  details: (requeued: number, wasDisabled: boolean) => Record<string, unknown>,
): Promise<RequeuedEvents> {
  const tenant = await destinationOf(platform, tenantId);
  const { since, statuses, action } = requeue;
  const now = platform.clock.now();
  const requeued = await platform.db.transaction().execute(async (tx) => {
    if (tenant.webhook_disabled_at) await enableDestinationOf(tx, tenantId);
    const requeued = await WebhookDispatcher.requeueSince(tx, { tenantId, since, now, statuses });
    await recordAudit(tx, {
      tenantId,
      actor: ACTOR,
      action,
      requestId,
      details: details(requeued, tenant.webhook_disabled_at !== null),
      at: now,
    });
    return requeued;
  });
  return { tenant_id: tenantId, since, requeued };
}

/**
 * Queues again every event of the tenant produced since `since` that is not delivered (failed, no destination, or
 * waiting for a retry). A disabled destination is enabled by it: the staff redeliver once the tenant's endpoint
 * answers again.
 */
export function redeliverSince(
  platform: Platform,
  tenantId: string,
  since: Date,
  requestId: string | null,
): Promise<RequeuedEvents> {
  return enableAndRequeue(
    platform,
    tenantId,
    requestId,
    { since, statuses: [...UNDELIVERED, 'pending'], action: 'webhook.redeliver_since' },
    (requeued, wasDisabled) => ({ since: since.toISOString(), requeued, enabled: wasDisabled }),
  );
}

/**
 * Enables a destination disabled for failing past the retry schedule, and queues again what it left undelivered
 * within the redelivery horizon.
 */
export function enableDestination(
  platform: Platform,
  tenantId: string,
  requestId: string | null,
): Promise<RequeuedEvents> {
  return enableAndRequeue(
    platform,
    tenantId,
    requestId,
    { since: horizonStart(platform.clock.now()), statuses: UNDELIVERED, action: 'webhook.enabled' },
    (requeued) => ({ requeued }),
  );
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
  return WebhookDispatcher.requeueSince(tx, {
    tenantId,
    since: horizonStart(now),
    now,
    statuses: UNDELIVERED,
  });
}
