import { recordAudit } from '../../platform/audit.js';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { emitEvent } from '../../platform/outbox.js';
import { assertDeliverableUrl } from '../../platform/webhooks/destination.js';
import { WebhookDispatcher } from '../../platform/webhooks/dispatcher.js';
import { requeueForNewDestination } from '../../platform/webhooks/recovery.js';
import * as store from '../backoffice.store.js';
import { ACTOR, getTenant, updateTenant } from './tenants.js';

/** The staff's verbs on a tenant's webhook destination and its deliveries. */

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
  const event = await store.findEventTenant(platform.db, eventId);
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
