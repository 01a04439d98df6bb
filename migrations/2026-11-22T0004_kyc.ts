import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- USD value of one major unit of each currency, kept by the service's staff. USD is the base and stays 1.
    create table fx_rates (
      currency text primary key check (currency ~ '^[A-Z]{3}$'),
      usd_per_unit numeric not null check (usd_per_unit > 0),
      updated_at timestamptz
    );
    insert into fx_rates (currency, usd_per_unit, updated_at) values ('USD', 1, now());

    -- One row per player the tenant has told us about: the verified tier and lifetime withdrawals in USD cents.
    create table kyc_users (
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      verified_tier text not null default 'tier_0'
        check (verified_tier in ('tier_0', 'tier_1', 'tier_2', 'tier_3', 'tier_4')),
      verified_at timestamptz,
      cumulative_withdrawn_usd_cents bigint not null default 0 check (cumulative_withdrawn_usd_cents >= 0),
      updated_at timestamptz not null,
      primary key (tenant_id, user_id)
    );

    create table kyc_checks (
      kyc_check_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      required_tier text not null check (required_tier in ('tier_1', 'tier_2', 'tier_3', 'tier_4')),
      required_documents jsonb not null,
      status text not null
        check (status in ('not_started', 'in_progress', 'pending_review', 'approved', 'rejected', 'expired')),
      is_open boolean generated always as (status in ('not_started', 'in_progress', 'pending_review')) stored,
      withdrawal_id text,
      withdrawal_amount_cents bigint not null check (withdrawal_amount_cents > 0),
      currency text not null,
      withdrawal_usd_cents bigint not null,
      -- SHA-256 of the vendor access token; the token itself is never stored.
      vendor_token_hash text not null unique,
      vendor_token_expires_at timestamptz not null,
      request_hash text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      last_activity_at timestamptz not null,
      decided_at timestamptz,
      decided_by text,
      decision_reason text
    );
    -- At most one open check per user: the natural key of POST /v1/kyc/start while the check is open.
    create unique index kyc_checks_one_open on kyc_checks (tenant_id, user_id) where is_open = true;
    create index kyc_checks_user on kyc_checks (tenant_id, user_id, created_at);

    -- Withdrawals that cleared end to end: idempotent on (tenant, withdrawal_id); they advance kyc_users.
    create table kyc_withdrawals (
      tenant_id text not null references tenants (tenant_id),
      withdrawal_id text not null,
      user_id text not null,
      amount_cents bigint not null check (amount_cents > 0),
      currency text not null,
      usd_cents bigint not null check (usd_cents >= 0),
      cumulative_after_usd_cents bigint not null,
      completed_at timestamptz not null,
      recorded_at timestamptz not null,
      request_hash text not null,
      primary key (tenant_id, withdrawal_id)
    );
  `,
  );
}
