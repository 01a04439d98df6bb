import { sql, type Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

const day = (at: Date) => at.toISOString().slice(0, 10).replaceAll('-', '');

/**
 * The AML events made a table partitioned by month of occurred_at, as migration 0036 did for the other append-only
 * tables (docs/data.md, Partitions): the old table becomes the partition of everything before the first day of the
 * next month, the scheduler adds the months after it. A unique key must include the partition key, so the natural
 * key (tenant_id, transaction_id) moves to a table of its own, aml_event_keys, which the storing statement writes
 * first; the evaluation queue carries each event's occurred_at, so that the evaluator reads the one partition that
 * holds it. The dead letters keep their event_id, no longer a foreign key (one to a partitioned table must name its
 * partition key): they are written only by the evaluator, for an event it holds.
 *
 * Writes of events wait while the keys are copied (EXCLUSIVE lock: reads go on), unless a deployment prepared the
 * key table while the old version served (docs/data.md: a trigger keeps it whole while a copy fills it); the rest
 * is catalog work but for the event_id index of the old rows, unless made beforehand too.
 */
// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ bound: Date }>`
    select (date_trunc('month', now() at time zone 'UTC') + interval '1 month') at time zone 'UTC' as bound`.execute(
    db,
  );
  const bound = new Date(rows[0]!.bound);
  const literal = `'${bound.toISOString()}'`;
  const legacy = `aml_events_before_${day(bound)}`;
  const proven = await sql<{ n: number }>`
    select count(*)::int as n from pg_constraint
    where conname = 'aml_events_before_partitions' and conrelid = 'aml_events'::regclass and convalidated`.execute(
    db,
  );
  const prepared = await sql<{ present: boolean }>`
    select to_regclass('aml_event_keys') is not null as present`.execute(db);
  const keys = prepared.rows[0]!.present
    ? `
    -- Prepared (docs/data.md): the trigger has kept the keys whole since the copy; its unique index is the key.
    drop trigger aml_event_keys_copy on aml_events;
    drop function aml_event_keys_copy();
    alter table aml_event_keys add constraint aml_event_keys_pkey primary key using index aml_event_keys_pkey;
    `
    : `
    -- The natural key of every event, unique across partitions; no foreign key, aml_events has it.
    create table aml_event_keys (
      tenant_id text not null,
      transaction_id text not null,
      event_id text not null,
      occurred_at timestamptz not null
    );
    insert into aml_event_keys (tenant_id, transaction_id, event_id, occurred_at)
      select tenant_id, transaction_id, event_id, occurred_at from aml_events;
    -- Built after the copy: one sort, not a million insertions into a growing index.
    alter table aml_event_keys add primary key (tenant_id, transaction_id);
    `;
  await executeStatements(
    db,
    `
    create schema if not exists partitions;
    lock table aml_events in exclusive mode;
    ${keys}
    -- The retention job finds the keys of dropped partitions by age: rows arrive in about the order of their time.
    create index if not exists aml_event_keys_occurred_at on aml_event_keys using brin (occurred_at);

    alter table aml_evaluation_queue add column occurred_at timestamptz;
    update aml_evaluation_queue q set occurred_at = e.occurred_at from aml_events e where e.event_id = q.event_id;
    delete from aml_evaluation_queue where occurred_at is null;
    alter table aml_evaluation_queue alter column occurred_at set not null;

    alter table aml_dead_letters drop constraint aml_dead_letters_event_id_fkey;

    ${proven.rows[0]!.n === 0 ? `alter table aml_events add constraint aml_events_before_partitions check (occurred_at < ${literal});` : ''}
    alter table aml_events rename to ${legacy};
    alter table ${legacy} set schema partitions;
    create table aml_events (
      event_id text not null,
      tenant_id text not null references tenants (tenant_id),
      user_id text not null,
      event_type text not null
        check (event_type in ('deposit', 'withdrawal', 'wager', 'settlement', 'login', 'account_update')),
      transaction_id text not null,
      amount_cents bigint not null check (amount_cents >= 0),
      currency text not null,
      usd_cents bigint not null check (usd_cents >= 0),
      payment_method text,
      fingerprint text,
      metadata jsonb not null default '{}',
      occurred_at timestamptz not null,
      received_at timestamptz not null,
      request_hash text not null,
      status text not null default 'succeeded' check (status in ('succeeded', 'failed', 'pending')),
      settled_at timestamptz
    ) partition by range (occurred_at);
    -- The old table's unique event_id cannot be the parent's index: this one is built on it unless made beforehand.
    create index aml_events_event_id on aml_events (event_id);
    create index aml_events_user_time on aml_events (tenant_id, user_id, occurred_at) include (event_type, usd_cents, status);
    create index aml_events_fingerprint on aml_events (tenant_id, fingerprint, user_id) where fingerprint is not null;
    create index aml_events_user_fingerprint on aml_events (tenant_id, user_id, fingerprint) where fingerprint is not null;
    alter table aml_events attach partition partitions.${legacy} for values from (minvalue) to (${literal});
    alter table partitions.${legacy} drop constraint aml_events_before_partitions;
    `,
  );
}
