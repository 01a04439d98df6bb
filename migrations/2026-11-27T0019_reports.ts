import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- A read-only role for the regulator's staff: reports and the register's exports, nothing else.
    alter table staff_accounts drop constraint staff_accounts_role_check;
    alter table staff_accounts add constraint staff_accounts_role_check
      check (role in ('admin', 'supervisor', 'reviewer', 'auditor', 'regulator'));

    -- The hand-over of operator-registered exclusions to the regulator (docs/exclusions.md): one daily export per
    -- environment, or a re-request of an earlier one. Only ids and digests are kept: the rows are rendered from the
    -- register's columns that never change after registration, so the content is the same at every download.
    create table regulator_exports (
      export_id text primary key,
      environment text not null check (environment in ('sandbox', 'live')),
      kind text not null check (kind in ('daily', 'rerequest')),
      -- The UTC day a daily export closes (YYYY-MM-DD); a re-request's is the day it was made.
      export_date text not null,
      rerequest_of text references regulator_exports (export_id),
      reason text,
      requested_by text not null,
      created_at timestamptz not null,
      row_count integer not null,
      sha256_csv text not null,
      sha256_json text not null,
      acknowledged_at timestamptz,
      acknowledged_by text
    );
    -- One daily export per environment and day, whatever the number of workers.
    create unique index regulator_exports_daily on regulator_exports (environment, export_date) where kind = 'daily';

    -- A row is exported once as a registration and, if staff void it afterwards, once more as a void, so the
    -- regulator's list drops a row registered in error.
    create table regulator_export_rows (
      export_id text not null references regulator_exports (export_id),
      exclusion_id text not null references exclusions (exclusion_id),
      record text not null check (record in ('registration', 'void')),
      primary key (export_id, exclusion_id, record)
    );
    -- "Not yet exported" is an anti-join on this index.
    create index regulator_export_rows_exclusion on regulator_export_rows (exclusion_id);

    -- Every version of every regulatory report (docs/reports.md): immutable once written, never updated.
    create table reports (
      report_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      report_type text not null check (report_type in ('threshold', 'self_limitation')),
      period_kind text not null check (period_kind in ('day', 'month')),
      -- YYYY-MM-DD for a day, YYYY-MM for a month; start and end (exclusive) in UTC.
      period text not null,
      period_start timestamptz not null,
      period_end timestamptz not null,
      version integer not null,
      version_kind text not null check (version_kind in ('original', 'regeneration', 'amendment')),
      reason text,
      requested_by text not null,
      generator_version text not null,
      -- Every source row received up to this time is included.
      high_water_mark timestamptz not null,
      compiled_at timestamptz not null,
      row_count integer not null,
      daily_counts jsonb not null,
      content_csv text not null,
      content_json text not null,
      sha256_csv text not null,
      sha256_json text not null,
      unique (tenant_id, report_type, period_kind, period, version)
    );
    create index reports_period on reports (period_start, report_id);
    -- The retention purge walks versions by age.
    create index reports_compiled on reports (compiled_at);
  `,
  );
}
