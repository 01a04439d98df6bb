import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- A player's export and erasure find their audit entries by the user_id in their details (docs/data.md, Export):
    -- without it, both read the whole audit log, years of it. Made on every partition.
    create index if not exists audit_log_user on audit_log (tenant_id, (details ->> 'user_id'));
    -- A contact's export finds the sanctions screens (kept 5 years) of an email, compared without case.
    create index if not exists sanctions_screens_email on sanctions_screens (lower(email));
    `,
  );
}
