import type { Transaction } from 'kysely';
import type { DB } from './db/schema.js';
import type { EventCatalogue, EventName } from './events.js';
import { newId } from './ids.js';
import { insertEvents } from './outbox.store.js';

export { eventsOfUser, recentEventsOfUser } from './events-feed.store.js';

/** The SQL form of an event, for statements that decide in SQL whether it happens (the limits check). */
export { isoTimestampSql, outboxInsertSql } from './outbox.store.js';

export interface WebhookEnvelope<Data = Record<string, unknown>> {
  event: string;
  event_id: string;
  timestamp: string;
  data: Data;
}

/**
 * Writes events to the outbox inside the caller's transaction: they exist only if the state change commits.
 * One row per receiving tenant (an exclusion is announced to every tenant of its environment). Its name and data
 * are the catalogue's (events.ts): an event the catalogue lacks, or data of another shape, does not compile.
 */
export async function emitEvent<Name extends EventName>(
  tx: Transaction<DB>,
  input: { tenantIds: string | string[]; event: Name; data: EventCatalogue[Name]; at: Date },
): Promise<WebhookEnvelope[]> {
  const tenantIds = Array.isArray(input.tenantIds) ? input.tenantIds : [input.tenantIds];
  if (tenantIds.length === 0) return [];
  const envelopes = tenantIds.map((tenantId) => ({
    tenantId,
    envelope: {
      event: input.event,
      event_id: newId('event'),
      timestamp: input.at.toISOString(),
      data: input.data,
    } satisfies WebhookEnvelope,
  }));
  // A new event is due for delivery at once.
  await insertEvents(
    tx,
    envelopes.map(({ tenantId, envelope }) => ({
      event_id: envelope.event_id,
      tenant_id: tenantId,
      event: envelope.event,
      payload: JSON.stringify(envelope),
      created_at: input.at,
      delivery_status: 'pending' as const,
      next_attempt_at: input.at,
    })),
  );
  return envelopes.map((e) => e.envelope);
}
