import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    create table deposit_limits (
      limit_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      limit_type text not null check (limit_type in ('limit_daily', 'limit_weekly', 'limit_monthly')),
      amount_cents bigint not null check (amount_cents > 0),
      currency text not null,
      current_limit_cents bigint,
      is_increase boolean not null,
      cooloff_seconds integer not null,
      requested_at timestamptz not null,
      created_at timestamptz not null,
      effective_from timestamptz not null,
      status text not null check (status in ('pending', 'active', 'superseded', 'cancelled')),
      ended_at timestamptz,
      request_hash text not null
    );
    -- At most one limit in force and one pending increase per user and type.
    create unique index deposit_limits_one_active on deposit_limits (tenant_id, user_id, limit_type) where status = 'active';
    create unique index deposit_limits_one_pending on deposit_limits (tenant_id, user_id, limit_type) where status = 'pending';
    -- The user's limits of any status (their currency, their listing) without a scan.
    create index deposit_limits_user on deposit_limits (tenant_id, user_id);

    create table deposits (
      tenant_id text not null references tenants (tenant_id),
      transaction_id text not null,
      user_id text not null,
      amount_cents bigint not null check (amount_cents > 0),
      currency text not null,
      committed_at timestamptz not null,
      recorded_at timestamptz not null,
      request_hash text not null,
      primary key (tenant_id, transaction_id)
    );
    -- A rolling window is one range scan of this index, whatever the history length.
    create index deposits_window on deposits (tenant_id, user_id, committed_at) include (amount_cents);
  `,
  );
}
