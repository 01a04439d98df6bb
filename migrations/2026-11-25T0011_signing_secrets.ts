import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- A rotation keeps the secret it replaced (encrypted, like signing_secret) until the overlap ends: deliveries
    -- carry a signature by each meanwhile. The rows' plaintext secrets are encrypted by the service at start-up,
    -- not here: the key is the service's configuration, never the database's.
    alter table tenants add column previous_signing_secret text;
    alter table tenants add column previous_signing_secret_expires_at timestamptz;
    alter table tenants add constraint tenants_previous_signing_secret_expiry
      check ((previous_signing_secret is null) = (previous_signing_secret_expires_at is null));

    -- The security log's daily retention job deletes by age.
    create index security_log_occurred_at on security_log (occurred_at);
  `,
  );
}
