import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- A contact's data export finds the register's rows of every status (expired and voided too), which the live
    -- check's indexes (active rows only) do not hold: by the canonical email and the phone, the forms every other one
    -- is derived from (docs/data.md, Export of a contact). Whole, not partial: a partial one (rows with the contact)
    -- drew the live check's plan away from its own indexes.
    -- "if not exists": a deployment with a large register builds them beforehand with create index concurrently.
    create index if not exists exclusions_contact_email on exclusions (email_canonical);
    create index if not exists exclusions_contact_phone on exclusions (phone);
    `,
  );
}
