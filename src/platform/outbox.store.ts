import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './db/database.js';
import type { NewEvent } from './db/platform-tables.js';

/** Inserts outbox rows as given (one statement for all of them). */
export async function insertEvents(db: Executor, rows: NewEvent[]): Promise<void> {
  await db.insertInto('events').values(rows).execute();
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
