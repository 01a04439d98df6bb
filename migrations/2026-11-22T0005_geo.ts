import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations. The country list is seeded at start (registerGeoJobs),
// not here, so that this file never depends on a data file that may grow.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- Service-wide tiers: ISO 3166-1 alpha-2 countries plus sub-national entries such as CA-ON.
    create table geo_countries (
      code text primary key,
      name text not null,
      status text not null check (status in ('blocked', 'restricted', 'allowed')),
      updated_at timestamptz not null
    );

    -- Exactly one row: the list's version date and its revision (the ETag), bumped together on every change.
    create table geo_country_list (
      list_id boolean primary key default true check (list_id),
      version text not null,
      revision integer not null,
      updated_at timestamptz not null
    );

    create table geo_country_changes (
      change_id bigint generated always as identity primary key,
      code text not null references geo_countries (code),
      previous_status text not null,
      new_status text not null,
      reason text not null,
      revision integer not null,
      changed_at timestamptz not null,
      request_id text
    );

    -- Append-only; rows leave only through the 7-year retention job.
    create table geo_audit_log (
      geo_audit_id bigint generated always as identity primary key,
      tenant_id text not null references tenants (tenant_id),
      checked_at timestamptz not null,
      request_id text not null,
      ip_address text not null,
      user_agent text,
      context text,
      resolver text not null check (resolver in ('sandbox', 'production')),
      country_code text,
      region text,
      status text not null check (status in ('status_allowed', 'status_restricted', 'status_blocked')),
      cache text not null check (cache in ('HIT', 'MISS'))
    );
    create index geo_audit_log_tenant on geo_audit_log (tenant_id, checked_at);
    create index geo_audit_log_checked_at on geo_audit_log (checked_at);
  `,
  );
}
