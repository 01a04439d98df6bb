import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- Each service process's last sample of how busy it is, by role: the workers pace their background work
    -- against the busiest API process, and share it among the workers that reported lately (ADR 0019).
    create table process_load (
      process_id text primary key,
      role text not null check (role in ('api', 'worker')),
      busy real not null check (busy >= 0 and busy <= 1),
      sampled_at timestamptz not null
    );
    `,
  );
}
