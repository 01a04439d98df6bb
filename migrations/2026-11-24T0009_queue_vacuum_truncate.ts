import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- A vacuum that would shrink the evaluation queue's file must first take an exclusive lock on it, which every
    -- event's insert holds off: it retried every 50 ms for up to 5 s while inserts queued behind its attempts.
    -- Freed space is reused by the next rows instead, by the worker's vacuums and by autovacuum alike.
    alter table aml_evaluation_queue set (vacuum_truncate = false);
  `,
  );
}
