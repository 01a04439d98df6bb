import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- The amounts an allowed check holds for a deposit in progress, one row per user: the check's one statement
    -- locks this row (insert ... on conflict do update), so concurrent checks of a user queue on it and each sees
    -- the holds of those before it (see src/areas/limits/hot/limits-check.ts). holds is a JSON array, oldest first, of
    -- {id, amount_cents, expires_at (epoch ms)}, plus {consumed_tx, consumed_at (epoch ms)} once a commit consumed
    -- it. held_until is the latest expiry, for the hourly purge; it is not indexed, so that the update of every
    -- allowed check stays a heap-only (HOT) update (the fill factor leaves pages room for it).
    create table limit_reservations (
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      holds jsonb not null,
      held_until timestamptz not null,
      primary key (tenant_id, user_id)
    ) with (fillfactor = 70);

    -- Releases of failed or abandoned deposits, idempotent on (tenant, transaction_id).
    create table limit_releases (
      tenant_id text not null references tenants (tenant_id),
      transaction_id text not null,
      user_id text not null,
      amount_cents bigint not null check (amount_cents > 0),
      currency text not null,
      reservation_id text,
      released_at timestamptz not null,
      request_hash text not null,
      primary key (tenant_id, transaction_id)
    );
    create index limit_releases_released_at on limit_releases (released_at);
  `,
  );
}
