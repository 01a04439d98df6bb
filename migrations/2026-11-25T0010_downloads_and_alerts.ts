import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- One row per configured download (a sanctions list publication, the IP geolocation database): what the last
    -- check saw, and the version accepted into the data directory. lease_until keeps two processes from fetching
    -- one source at once; a process that dies mid-fetch lets its lease lapse.
    create table download_sources (
      source_id text primary key,
      url text not null,
      etag text,
      last_modified text,
      checked_at timestamptz,
      outcome text check (outcome in ('updated', 'unchanged', 'not_modified', 'refused', 'failed')),
      error text,
      fetched_at timestamptz,
      version text,
      entities integer,
      sha256 text,
      lease_until timestamptz
    );

    -- What needs a person: raised by the service, listed newest first in the back office.
    create table alerts (
      alert_id text primary key,
      kind text not null,
      subject text not null,
      message text not null,
      details jsonb not null default '{}',
      raised_at timestamptz not null
    );
    create index alerts_newest on alerts (raised_at desc, alert_id desc);
  `,
  );
}
