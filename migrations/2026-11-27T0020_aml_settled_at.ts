import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- When a pending event's outcome arrived: money that moved is known from then, not from the event's receipt, so a
    -- closed report learns of it as late data. Not indexed, so the settling update stays a heap-only update.
    alter table aml_events add column settled_at timestamptz;
    `,
  );
}
