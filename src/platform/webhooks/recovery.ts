import { audit } from '../audit.js';
import type { ServiceContext } from '../context.js';
import type { Executor } from '../db/database.js';
import { AppError } from '../errors.js';
import { forTenant, withTransaction } from '../service-context.js';
import { DAY_MS } from '../utc-calendar.js';
import { REDELIVERY_HORIZON_DAYS, WebhookDispatcher, type RequeuedStatus } from './dispatcher.js';
import { enableDestinationOf, findDestination } from './recovery.store.js';

export { webhookFailuresByTenant } from './recovery.store.js';

/** The staff's verbs to recover a tenant's deliveries after an outage (back office and CLI). */

/** What redelivery and re-enabling leave undelivered otherwise: events that ran out of attempts or had nowhere to go. */
const UNDELIVERED: readonly RequeuedStatus[] = ['failed', 'no_destination'];

/** The oldest time re-enabling or registering a destination reaches back to. */
const horizonStart = (now: Date) => new Date(now.getTime() - REDELIVERY_HORIZON_DAYS * DAY_MS);

export interface RequeuedEvents {
  tenant_id: string;
  since: Date;
  requeued: number;
}

async function destinationOf(db: Executor, tenantId: string) {
  const tenant = await findDestination(db, tenantId);
  if (!tenant) throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
  if (!tenant.webhook_url) {
    throw new AppError('invalid_webhook_url', 'The tenant has no webhook destination registered');
  }
  return tenant;
}

/**
 * Enables the tenant's destination if it was disabled, and queues again, from a fresh schedule and oldest first, its
 * events since `since` in these statuses; audited as `action` in the same transaction.
 */
async function enableAndRequeue(
  ctx: ServiceContext,
  tenantId: string,
  requeue: { since: Date; statuses: readonly RequeuedStatus[]; action: string },
  details: (requeued: number, wasDisabled: boolean) => Record<string, unknown>,
): Promise<RequeuedEvents> {
  const tenant = await destinationOf(ctx.db, tenantId);
  const { since, statuses, action } = requeue;
  const requeued = await withTransaction(forTenant(ctx, tenantId), async (tx, ctx) => {
    if (tenant.webhook_disabled_at) await enableDestinationOf(tx, tenantId);
    const now = ctx.clock.now();
    const requeued = await WebhookDispatcher.requeueSince(tx, { tenantId, since, now, statuses });
    await audit(tx, ctx, action, details(requeued, tenant.webhook_disabled_at !== null));
    return requeued;
  });
  return { tenant_id: tenantId, since, requeued };
}

/**
 * Queues again every event of the tenant produced since `since` that is not delivered (failed, no destination, or
 * waiting for a retry). A disabled destination is enabled by it: the staff redeliver once the tenant's endpoint
 * answers again.
 */
export function redeliverSince(ctx: ServiceContext, tenantId: string, since: Date): Promise<RequeuedEvents> {
  return enableAndRequeue(
    ctx,
    tenantId,
    { since, statuses: [...UNDELIVERED, 'pending'], action: 'webhook.redeliver_since' },
    (requeued, wasDisabled) => ({ since: since.toISOString(), requeued, enabled: wasDisabled }),
  );
}

/**
 * Enables a destination disabled for failing past the retry schedule, and queues again what it left undelivered
 * within the redelivery horizon.
 */
export function enableDestination(ctx: ServiceContext, tenantId: string): Promise<RequeuedEvents> {
  return enableAndRequeue(
    ctx,
    tenantId,
    { since: horizonStart(ctx.clock.now()), statuses: UNDELIVERED, action: 'webhook.enabled' },
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
