import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- The AML evaluation queue: one row per stored event not yet evaluated, written by the statement that stores
    -- the event and deleted by the transaction that evaluates it. An evaluated event's aml_events row is never
    -- rewritten (an update of evaluated_at had rewritten the row's entries in every index of aml_events).
    create table aml_evaluation_queue (
      event_id text not null,
      received_at timestamptz not null
    );
    create index aml_evaluation_queue_order on aml_evaluation_queue (received_at);
    insert into aml_evaluation_queue (event_id, received_at)
      select event_id, received_at from aml_events where evaluated_at is null;
    drop index aml_events_unevaluated;
    alter table aml_events drop column evaluated_at;
  `,
  );
}
