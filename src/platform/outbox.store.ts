import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './db/database.js';
import type { NewEvent } from './db/platform-tables.js';

/** Inserts outbox rows as given (one statement for all of them). */
export async function insertEvents(db: Executor, rows: NewEvent[]): Promise<void> {
  await db.insertInto('events').values(rows).execute();
}

/** An instant in the envelopes' timestamp format (Date.toISOString's), from a timestamptz SQL expression. */
export const isoTimestampSql = (at: RawBuilder<unknown>) =>
  sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The outbox insert of events as SQL, for a statement that decides in SQL whether each event happens (a
 * data-modifying CTE, so a check and its event stay one round trip). Same row and envelope as emitEvent. `source`
 * is the statement's `from … where …`, one row per event (no row, no event); `tenantId`, `eventId`, `at` and
 * `data` are SQL expressions over it.
 */
export function outboxInsertSql(input: {
  event: string;
  tenantId: RawBuilder<string>;
  eventId: RawBuilder<string>;
  at: RawBuilder<Date>;
  data: RawBuilder<unknown>;
  source: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  return sql`insert into events (event_id, tenant_id, event, payload, created_at, delivery_status, next_attempt_at)
    select ${input.eventId}, ${input.tenantId}, ${input.event},
      json_build_object(
        'event', ${input.event}::text,
        'event_id', ${input.eventId},
        'timestamp', ${isoTimestampSql(input.at)},
        'data', ${input.data}
      )::text,
      ${input.at}, 'pending', ${input.at}
    ${input.source}`;
}
