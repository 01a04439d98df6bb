import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- One row per screened user: the screening request and the user's current sanctions status. checked_at is the
    -- latest screening (signup or re-screen).
    create table sanctions_screens (
      screen_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      first_name text not null,
      last_name text not null,
      date_of_birth date not null,
      nationality text not null,
      email text not null,
      status text not null check (status in ('clear', 'hit_review_pending', 'cleared', 'confirmed')),
      transactions_held boolean not null,
      match_count integer not null,
      highest_match_score numeric not null,
      case_id text,
      vendor text not null,
      list_versions jsonb not null default '{}',
      checked_at timestamptz not null,
      updated_at timestamptz not null,
      request_hash text not null,
      -- The answer to the first request, replayed to the same request: the original result, whatever came since.
      screen_response jsonb not null,
      unique (tenant_id, user_id)
    );

    -- A review case per hit. Matched entities live here and are shown only in the back office (tipping-off rule).
    create table sanctions_cases (
      case_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      screen_id text not null references sanctions_screens (screen_id),
      user_id text not null,
      status text not null check (status in ('hit_review_pending', 'cleared', 'confirmed')),
      matches jsonb not null,
      list_versions jsonb not null default '{}',
      highest_match_score numeric not null,
      opened_at timestamptz not null,
      decided_at timestamptz,
      reviewer text,
      trigger text not null check (trigger in ('signup', 'rescreen'))
    );
    create index sanctions_cases_status on sanctions_cases (status, opened_at);
    create index sanctions_cases_screen on sanctions_cases (screen_id);
  `,
  );
}
