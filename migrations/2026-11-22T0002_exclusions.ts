import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- The national self-exclusion register: operators' rows (origin 'operator', with their tenant and user) and
    -- the regulator's master list (origin 'regulator', no tenant). Rows are never deleted; expiry flips status.
    create table exclusions (
      exclusion_id text primary key,
      environment text not null check (environment in ('sandbox', 'live')),
      origin text not null check (origin in ('operator', 'regulator')),
      tenant_id text references tenants (tenant_id),
      user_id text,
      -- Normalised: trimmed lower-case email; E.164 phone.
      email text,
      phone text,
      duration text not null check (duration in
        ('duration_24h', 'duration_7d', 'duration_30d', 'duration_6m', 'duration_1y', 'duration_permanent')),
      is_permanent boolean not null,
      reason text,
      initiated_at timestamptz,
      effective_from timestamptz not null,
      expires_at timestamptz,
      regulator_propagated boolean not null,
      status text not null check (status in ('active', 'expired')),
      request_hash text not null,
      expired_at timestamptz,
      check (email is not null or phone is not null),
      check ((origin = 'operator') = (tenant_id is not null and user_id is not null)),
      check (is_permanent = (expires_at is null)),
      check (is_permanent = (duration = 'duration_permanent'))
    );

    -- Idempotency of POST /v1/exclusions: one active exclusion per (tenant, user, duration).
    create unique index exclusions_natural_key on exclusions (tenant_id, user_id, duration) where status = 'active';
    -- Idempotency of the regulator's form: one active master-list row per identical entry.
    create unique index exclusions_regulator_entry on exclusions (request_hash)
      where status = 'active' and origin = 'regulator';

    -- The live check's look-ups (one index each for email and phone) and the snapshot's keyset walk.
    create index exclusions_email on exclusions (environment, email) where status = 'active';
    create index exclusions_phone on exclusions (environment, phone) where status = 'active';
    create index exclusions_walk on exclusions (environment, exclusion_id) where status = 'active';
  `,
  );
}
