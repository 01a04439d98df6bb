import type { Platform } from './context.js';
import type { Executor } from './db/database.js';
import { DATA_LIFECYCLE, type TimePartitions } from './data-lifecycle.js';
import { createPartition, dropPartition, listPartitions, lockPartitions } from './partitions.store.js';
import { ensureJobScheduled, scheduleJob } from './scheduler.js';
import { addSpan, DAY_MS } from './utc-calendar.js';

/**
 * The tables partitioned by time (docs/data.md, Partitions), from the lifecycle table: partitions are created ahead
 * of the service clock by one job for the service and dropped whole once their whole span is past retention.
 */
export const PARTITIONS_JOB = 'partitions.maintain';

/** Partitions kept ready after the one the service clock is in: a missed day of the job is no outage. */
export const PARTITIONS_AHEAD = 2;

export const PARTITIONED_TABLES: readonly (TimePartitions & { table: string })[] = Object.entries(
  DATA_LIFECYCLE,
).flatMap(([table, lifecycle]) => (lifecycle.partition ? [{ table, ...lifecycle.partition }] : []));

/** One partition: its span [from, to) on the partition key; from null is the migrated rows' partition (MINVALUE). */
export interface Partition {
  name: string;
  from: Date | null;
  to: Date;
}

const day = (at: Date) => at.toISOString().slice(0, 10).replaceAll('-', '');
const fromDay = (text: string) =>
  new Date(`${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}T00:00:00Z`);

/** A partition's name holds its bounds: `<table>_<from>_<to>` in UTC days, `<table>_before_<to>` for MINVALUE. */
export const partitionName = (table: string, from: Date | null, to: Date) =>
  `${table}_${from ? day(from) : 'before'}_${day(to)}`;

export function parsePartition(table: string, name: string): Partition | undefined {
  const match = new RegExp(`^${table}_(before|\\d{8})_(\\d{8})$`).exec(name);
  if (!match) return undefined;
  return { name, from: match[1] === 'before' ? null : fromDay(match[1]!), to: fromDay(match[2]!) };
}

/** When a partition may be dropped: its whole span is past retention once its end is `dropAfter` old. */
export const dropsAt = (spec: TimePartitions, partition: Partition) => addSpan(partition.to, spec.dropAfter);

/** Partitions whose whole span is after `now`: the cover ahead that the metric reports. */
export const partitionsAhead = (partitions: readonly Partition[], now: Date) =>
  partitions.filter((p) => p.from !== null && p.from > now).length;

/**
 * What a table needs at `now`: the partitions to create, each starting where the last ends, until PARTITIONS_AHEAD
 * start after now; the partitions to drop; and when the next drop falls due. A gap of more than one span before
 * now (a service stopped for months, a test clock moved years) becomes one partition, not one per span.
 */
export function planPartitions(
  spec: TimePartitions & { table: string },
  existing: readonly Partition[],
  now: Date,
): { create: Partition[]; drop: Partition[]; nextDropAt: Date | undefined } {
  const drop = existing.filter((p) => dropsAt(spec, p) <= now);
  const kept = existing.filter((p) => dropsAt(spec, p) > now);
  const create: Partition[] = [];
  let cursor = existing.reduce<Date | undefined>(
    (last, p) => (!last || p.to > last ? p.to : last),
    undefined,
  );
  if (!cursor) {
    // No partition at all: the first starts on the first of now's month, a start every span can step from.
    cursor = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  }
  if (addSpan(cursor, spec.every) <= now) {
    let current = cursor;
    while (addSpan(current, spec.every) <= now) current = addSpan(current, spec.every);
    create.push({ name: partitionName(spec.table, cursor, current), from: cursor, to: current });
    cursor = current;
  }
  while (partitionsAhead([...kept, ...create], now) < PARTITIONS_AHEAD) {
    const to = addSpan(cursor, spec.every);
    create.push({ name: partitionName(spec.table, cursor, to), from: cursor, to });
    cursor = to;
  }
  const nextDropAt = [...kept, ...create]
    .map((p) => dropsAt(spec, p))
    .reduce<Date | undefined>((first, at) => (!first || at < first ? at : first), undefined);
  return { create, drop, nextDropAt };
}

/** The partitions of every partitioned table, as stored. */
export async function readPartitions(db: Executor): Promise<Map<string, Partition[]>> {
  const stored = await listPartitions(db);
  return new Map(
    PARTITIONED_TABLES.map(({ table }) => [
      table,
      stored.flatMap((row) => {
        const partition = row.parent === table ? parsePartition(table, row.name) : undefined;
        return partition ? [partition] : [];
      }),
    ]),
  );
}

/**
 * Creates and drops what every partitioned table needs at `now`, in the caller's transaction; returns when the job
 * must run next: a day later, or at the next drop if sooner, so a partition goes exactly when its span is past.
 */
export async function maintainPartitions(tx: Executor, now: Date): Promise<Date> {
  await lockPartitions(tx);
  const partitions = await readPartitions(tx);
  let next = new Date(now.getTime() + DAY_MS);
  for (const spec of PARTITIONED_TABLES) {
    const plan = planPartitions(spec, partitions.get(spec.table) ?? [], now);
    for (const partition of plan.create) {
      await createPartition(tx, {
        table: spec.table,
        name: partition.name,
        from: partition.from!,
        to: partition.to,
      });
    }
    for (const partition of plan.drop) await dropPartition(tx, partition.name);
    if (plan.nextDropAt && plan.nextDropAt < next) next = plan.nextDropAt;
  }
  return next;
}

/**
 * At start, the partitions the service clock needs now, before any request is served (a first start, a test clock
 * far from the migration's time); then the daily job, one for the service (subject 'all').
 */
export async function registerPartitions(platform: Platform): Promise<void> {
  const { db, clock, metrics, scheduler } = platform;
  scheduler.register(PARTITIONS_JOB, async (tx, _job, now) => {
    const dueAt = await maintainPartitions(tx, now);
    await scheduleJob(tx, { kind: PARTITIONS_JOB, subjectId: 'all', dueAt });
  });
  await db.transaction().execute(async (tx) => {
    const now = clock.now();
    const dueAt = await maintainPartitions(tx, now);
    await ensureJobScheduled(tx, { kind: PARTITIONS_JOB, subjectId: 'all', dueAt });
  });
  metrics.gauge(
    'compliance_partitions_ahead',
    `Partitions of a time-partitioned table wholly after the service clock's now (the job keeps ${PARTITIONS_AHEAD})`,
    async () => {
      const now = clock.now();
      const partitions = await readPartitions(db);
      return PARTITIONED_TABLES.map(({ table }) => ({
        labels: { table },
        value: partitionsAhead(partitions.get(table) ?? [], now),
      }));
    },
    { labelNames: ['table'] },
  );
}
