import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from './db/schema.js';
import { newId } from './ids.js';

export interface WebhookEnvelope<Data = Record<string, unknown>> {
  event: string;
  event_id: string;
  timestamp: string;
  data: Data;
}

/**
 * Writes events to the outbox inside the caller's transaction: they exist only if the state change commits.
 * One row per receiving tenant (an exclusion is announced to every tenant of its environment).
 */
export async function emitEvent(
  tx: Transaction<DB>,
  input: { tenantIds: string | string[]; event: string; data: Record<string, unknown>; at: Date },
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
  await tx
    .insertInto('events')
    .values(
      envelopes.map(({ tenantId, envelope }) => ({
        event_id: envelope.event_id,
        tenant_id: tenantId,
        event: envelope.event,
        payload: JSON.stringify(envelope),
        created_at: input.at,
        delivery_status: 'pending' as const,
        next_attempt_at: input.at,
      })),
    )
    .execute();
  return envelopes.map((e) => e.envelope);
}

/**
 * The outbox insert of one event as SQL, for a statement that decides in SQL whether the event happens (a
 * data-modifying CTE, so a check and its event stay one round trip). Same row and envelope as emitEvent; `data` is
 * a SQL expression giving the JSON object, and `source` the statement's `from … where …`: no row, no event.
 */
export function outboxInsertSql(input: {
  tenantId: string;
  event: string;
  eventId: string;
  at: Date;
  data: RawBuilder<unknown>;
  source: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  const at = sql`${input.at}::timestamptz`;
  return sql`insert into events (event_id, tenant_id, event, payload, created_at, delivery_status, next_attempt_at)
    select ${input.eventId}, ${input.tenantId}, ${input.event},
      json_build_object(
        'event', ${input.event}::text,
        'event_id', ${input.eventId}::text,
        'timestamp', ${input.at.toISOString()}::text,
        'data', ${input.data}
      )::text,
      ${at}, 'pending', ${at}
    ${input.source}`;
}
