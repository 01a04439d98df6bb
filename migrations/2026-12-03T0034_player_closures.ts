import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- The end of a business relationship, as the operator states it (POST /v1/players/{user_id}/closed): the clocks
    -- of the data kept from the relationship's end run from closed_at (docs/data.md).
    create table player_closures (
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      closed_at timestamptz not null,
      recorded_at timestamptz not null,
      request_hash text not null,
      primary key (tenant_id, user_id)
    );
    create index player_closures_closed on player_closures (closed_at);
    `,
  );
}
