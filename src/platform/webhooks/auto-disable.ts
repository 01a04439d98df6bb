import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import { raiseAlert } from '../alerts.js';
import { audit } from '../audit.js';
import type { EventRow } from '../db/platform-tables.js';
import type { DB } from '../db/schema.js';
import { systemContext } from '../service-context.js';
import { anyDeliveredSince, disableDestinationOf, updateUnclaimedEvents } from './dispatcher.store.js';
import { RETRY_SPAN_SECONDS } from './retry-schedule.js';

/**
 * An event ran out of attempts at `now`. When its destination delivered nothing over the whole schedule, the
 * destination is down, not the event: it is disabled, the tenant's other undelivered events wait with it
 * (no_destination), and the staff are alerted, all in `tx`, the transaction that records the last attempt.
 * Returns whether it disabled the destination.
 */
export async function disableWhenFailingThroughout(
  tx: Transaction<DB>,
  log: FastifyBaseLogger,
  event: EventRow,
  url: string,
  now: Date,
): Promise<boolean> {
  const since = new Date(now.getTime() - RETRY_SPAN_SECONDS * 1000);
  if (await anyDeliveredSince(tx, event.tenant_id, since)) return false;
  if (!(await disableDestinationOf(tx, event.tenant_id, now))) return false;
  // Those in flight record their attempt, then find the destination disabled when they fall due again.
  await updateUnclaimedEvents(tx, event.tenant_id, 'pending', now, {
    delivery_status: 'no_destination',
    next_attempt_at: null,
  });
  // The entry is stamped with the last attempt's time, as the event's row and the alert are.
  const ctx = systemContext({ db: tx, clock: { now: () => now } }, event.tenant_id);
  await audit(tx, ctx, 'webhook.disabled', { url, event_id: event.event_id });
  await raiseAlert(
    tx,
    log,
    {
      kind: 'webhook_destination_disabled',
      subject: event.tenant_id,
      message: `The webhook destination of tenant ${event.tenant_id} failed every attempt for ${Math.round(RETRY_SPAN_SECONDS / 3600)} hours and is disabled; tell the tenant, then enable it once it answers`,
      details: { url, event_id: event.event_id },
    },
    now,
  );
  return true;
}
