import { audit } from '../../platform/audit.js';
import type { Platform, ServiceContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { emitEvent } from '../../platform/outbox.js';
import { forTenant, withTransaction } from '../../platform/service-context.js';
import { assertDeliverableUrl } from '../../platform/webhooks/destination.js';
import { WebhookDispatcher } from '../../platform/webhooks/dispatcher.js';
import { requeueForNewDestination } from '../../platform/webhooks/recovery.js';
import * as store from '../backoffice.store.js';
import { getTenant, updateTenant } from './tenants.js';

/** The staff's verbs on a tenant's webhook destination and its deliveries. */

export async function setWebhookUrl(platform: Platform, ctx: ServiceContext, tenantId: string, url: string) {
  const tenant = await getTenant(ctx, tenantId);
  const checked = await assertDeliverableUrl(url, tenant.environment, {
    allowPrivate: platform.config.allowPrivateWebhooks,
  });
  // A new destination starts enabled, and receives what waited for one (docs/webhooks.md).
  return updateTenant(
    platform,
    ctx,
    tenantId,
    { webhook_url: checked.toString(), webhook_disabled_at: null },
    { action: 'webhook.registered', details: { url: checked.toString() } },
    (tx, now) => requeueForNewDestination(tx, tenantId, now),
  );
}

/** Enqueues a signed `ping` event to the tenant's webhook destination (onboarding and tests). */
export async function pingWebhook(ctx: ServiceContext, tenantId: string) {
  const tenant = await getTenant(ctx, tenantId);
  if (!tenant.webhook_url) {
    throw new AppError('invalid_webhook_url', 'The tenant has no webhook destination registered');
  }
  const [envelope] = await withTransaction(forTenant(ctx, tenantId), async (tx, ctx) => {
    await audit(tx, ctx, 'webhook.ping');
    const at = ctx.clock.now();
    return emitEvent(tx, { tenantIds: tenantId, event: 'ping', data: { tenant_id: tenantId }, at });
  });
  return envelope!;
}

/** Not one transaction: the dispatcher re-queues on the database itself, then the audit row is written. */
export async function redeliverEvent(platform: Platform, ctx: ServiceContext, eventId: string) {
  const event = await store.findEventTenant(ctx.db, eventId);
  if (!event) throw new AppError('event_not_found', `No event ${eventId}`);
  await WebhookDispatcher.redeliver(platform.db, eventId, ctx.clock.now());
  await audit(ctx.db, forTenant(ctx, event.tenant_id), 'webhook.redeliver', { event_id: eventId });
  return { event_id: eventId, delivery_status: 'pending' as const };
}

/** The tenant's latest events, newest first, each with its delivery attempts in the order they were made. */
export async function listDeliveries(platform: Platform, tenantId: string, limit: number) {
  await getTenant(platform, tenantId);
  const events = await store.listDeliveryEvents(platform.db, tenantId, limit);
  const attempts = events.length
    ? await store.listDeliveryAttempts(
        platform.db,
        events.map((e) => e.event_id),
      )
    : [];
  return events.map((event) => ({
    ...event,
    attempts: attempts.filter((a) => a.event_id === event.event_id).map(({ event_id: _e, ...a }) => a),
  }));
}
