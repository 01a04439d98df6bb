import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- A tenant's retention period for one kind of data, within the bounds of its basis (docs/data.md): in the unit
    -- of the table's default, years or days.
    create table retention_overrides (
      tenant_id text not null references tenants (tenant_id),
      table_name text not null,
      keep_years integer check (keep_years > 0),
      keep_days integer check (keep_days > 0),
      updated_at timestamptz not null,
      updated_by text not null,
      primary key (tenant_id, table_name),
      check ((keep_years is null) <> (keep_days is null))
    );
    `,
  );
}
