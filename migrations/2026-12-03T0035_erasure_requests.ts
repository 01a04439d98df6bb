import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- A player's erasure requests (POST /v1/players/{user_id}/erasure-requests, or the staff's) and what each erased
    -- or kept (docs/data.md). A request names its player by pseudonym; the player's id in clear only while records
    -- that still protect the player (an exclusion in force, say) wait to be erased.
    create table erasure_requests (
      tenant_id text not null references tenants (tenant_id),
      erasure_request_id text not null,
      pseudonym text not null,
      user_id text,
      requested_by text not null,
      received_at timestamptz not null,
      recorded_at timestamptz not null,
      status text not null check (status in ('in_progress', 'completed')),
      completed_at timestamptz,
      outcome jsonb not null,
      request_hash text not null,
      primary key (tenant_id, erasure_request_id)
    );
    create index erasure_requests_player on erasure_requests (tenant_id, pseudonym, recorded_at);
    `,
  );
}
