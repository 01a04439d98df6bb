import { sql, type Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

/**
 * An append-only table made a partitioned table of the same name, its rows kept where they are: the old table is
 * renamed and moved to the `partitions` schema, then attached as the partition of everything before `bound` (the
 * first day of the month after the migration runs); the scheduler adds the partitions after it
 * (src/platform/partitions.ts). Only catalog work is done under the table's exclusive lock, but for one scan: the
 * CHECK constraint that proves the bound, so that the attach itself scans nothing. A deployment that adds and
 * validates `<table>_before_partitions` beforehand (docs/data.md, Partitions) skips that scan too.
 */
interface Conversion {
  table: string;
  /** The partition key: the service-clock time of the row's creation. */
  column: string;
  /** The identity column, whose sequence moves to the partitioned table; null: none. */
  identity: string | null;
  /** The partitioned table, with the old table's columns, defaults, checks and foreign keys. */
  create: string;
  /** The old table's indexes but its primary key, as the partitioned table's: the attach adopts the old ones. */
  indexes: string;
}

const CONVERSIONS: Conversion[] = [
  {
    table: 'geo_audit_log',
    column: 'checked_at',
    identity: 'geo_audit_id',
    create: `
      create table geo_audit_log (
        geo_audit_id bigint generated always as identity,
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
      ) partition by range (checked_at)`,
    indexes: `
      create index geo_audit_log_tenant on geo_audit_log (tenant_id, checked_at);
      create index geo_audit_log_checked_at on geo_audit_log (checked_at)`,
  },
  {
    table: 'webhook_attempts',
    column: 'attempted_at',
    identity: 'attempt_id',
    create: `
      create table webhook_attempts (
        attempt_id bigint generated always as identity,
        event_id text not null,
        tenant_id text not null,
        attempt_number integer not null,
        attempted_at timestamptz not null,
        url text not null,
        status_code integer,
        latency_ms integer not null,
        error text,
        outcome text not null check (outcome in ('delivered', 'retry_scheduled', 'failed'))
      ) partition by range (attempted_at)`,
    indexes: `
      create index webhook_attempts_tenant on webhook_attempts (tenant_id, attempt_id);
      create index webhook_attempts_event on webhook_attempts (event_id);
      create index webhook_attempts_delivered on webhook_attempts (tenant_id, attempted_at) where outcome = 'delivered';
      create index webhook_attempts_failed on webhook_attempts (attempted_at, tenant_id) where outcome <> 'delivered'`,
  },
  {
    table: 'events',
    column: 'created_at',
    identity: null,
    create: `
      create table events (
        event_id text not null,
        tenant_id text not null references tenants (tenant_id),
        event text not null,
        payload text not null,
        created_at timestamptz not null,
        delivery_status text not null check (delivery_status in ('pending', 'delivered', 'failed', 'no_destination')),
        attempt_count integer not null default 0,
        next_attempt_at timestamptz,
        claim_token text,
        claimed_until timestamptz,
        delivered_at timestamptz
      ) partition by range (created_at)`,
    // events_event_id is the one index the old table lacks (its primary key is unique, the parent's index cannot be):
    // built here unless made beforehand with create index concurrently (docs/data.md, Partitions).
    indexes: `
      create index events_event_id on events (event_id);
      create index events_due on events (next_attempt_at) where delivery_status = 'pending';
      create index events_tenant on events (tenant_id, created_at, event_id);
      create index events_user on events (tenant_id, ((payload::jsonb -> 'data' ->> 'user_id')), created_at, event_id)`,
  },
  {
    table: 'audit_log',
    column: 'occurred_at',
    identity: 'audit_id',
    create: `
      create table audit_log (
        audit_id bigint generated always as identity,
        tenant_id text,
        occurred_at timestamptz not null,
        actor text not null,
        action text not null,
        request_id text,
        details jsonb not null default '{}'
      ) partition by range (occurred_at)`,
    indexes: `
      create index audit_log_tenant on audit_log (tenant_id, audit_id);
      create index audit_log_actor on audit_log (actor, audit_id);
      create index audit_log_action on audit_log (action, audit_id);
      create index audit_log_occurred_at on audit_log (occurred_at, audit_id)`,
  },
];

const day = (at: Date) => at.toISOString().slice(0, 10).replaceAll('-', '');

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ bound: Date }>`
    select (date_trunc('month', now() at time zone 'UTC') + interval '1 month') at time zone 'UTC' as bound`.execute(
    db,
  );
  const bound = new Date(rows[0]!.bound);
  const literal = `'${bound.toISOString()}'`;
  await executeStatements(
    db,
    `
    create schema if not exists partitions;
    -- The geo audit log's 7 years are kept by dropping its partitions: its row-by-row retention job is gone.
    delete from scheduled_jobs where kind = 'geo.audit_retention';
    -- A foreign key to a partitioned table must name its partition key: attempts name their event by id alone.
    alter table webhook_attempts drop constraint webhook_attempts_event_id_fkey;
    `,
  );
  for (const c of CONVERSIONS) {
    const legacy = `${c.table}_before_${day(bound)}`;
    const proof = `${c.table}_before_partitions`;
    const proven = await sql<{ n: number }>`
      select count(*)::int as n from pg_constraint
      where conname = ${proof} and conrelid = ${c.table}::regclass and convalidated`.execute(db);
    const sequence = c.identity
      ? (
          await sql<{ last_value: string; is_called: boolean }>`
            select last_value::text, is_called from ${sql.raw(`${c.table}_${c.identity}_seq`)}`.execute(db)
        ).rows[0]
      : undefined;
    await executeStatements(
      db,
      `
      ${proven.rows[0]!.n === 0 ? `alter table ${c.table} add constraint ${proof} check (${c.column} < ${literal});` : ''}
      alter table ${c.table} rename to ${legacy};
      alter table ${legacy} set schema partitions;
      ${c.identity ? `alter table partitions.${legacy} alter column ${c.identity} drop identity;` : ''}
      ${c.create};
      ${c.indexes};
      alter table ${c.table} attach partition partitions.${legacy} for values from (minvalue) to (${literal});
      alter table partitions.${legacy} drop constraint ${proof};
      `,
    );
    if (c.identity && sequence) {
      await sql`select setval(pg_get_serial_sequence(${c.table}, ${c.identity}), ${sequence.last_value}::bigint, ${sequence.is_called})`.execute(
        db,
      );
    }
  }
}
