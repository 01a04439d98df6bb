import { sql } from 'kysely';
import type { Executor } from './db/database.js';

/** The schema that holds every partition: the service's own schema lists only whole tables. */
export const PARTITIONS_SCHEMA = 'partitions';

/** The partitions of the service's partitioned tables, by name (their bounds are in their names, see partitions.ts). */
export async function listPartitions(db: Executor): Promise<{ parent: string; name: string }[]> {
  const { rows } = await sql<{ parent: string; name: string }>`
    select p.relname as parent, c.relname as name
    from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    where c.relnamespace = ${PARTITIONS_SCHEMA}::regnamespace and c.relkind = 'r'
    order by p.relname, c.relname`.execute(db);
  return rows;
}

/** Serialises the partition work of several processes (a start-up and the scheduled job) until the transaction ends. */
export async function lockPartitions(tx: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended('platform/partitions', 0))`.execute(tx);
  // A partition's creation or drop takes its table's exclusive lock for a moment: it must not queue for long behind a
  // long transaction, holding every insert of the table behind it. It gives up and is retried instead.
  await sql`set local lock_timeout = '5s'`.execute(tx);
}

export async function createPartition(
  tx: Executor,
  partition: { table: string; name: string; from: Date; to: Date },
): Promise<void> {
  await sql`
    create table if not exists ${sql.table(`${PARTITIONS_SCHEMA}.${partition.name}`)}
    partition of ${sql.table(partition.table)}
    for values from (${sql.lit(partition.from.toISOString())}) to (${sql.lit(partition.to.toISOString())})`.execute(
    tx,
  );
}

export async function dropPartition(tx: Executor, name: string): Promise<void> {
  await sql`drop table if exists ${sql.table(`${PARTITIONS_SCHEMA}.${name}`)}`.execute(tx);
}
