import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { precompiled, type Param } from '../../platform/db/precompiled.js';
import type { AmlEvent } from './aml.tables.js';

/**
 * Plain queries over the AML events, their evaluation queue, the screens and the settings (the cases are in
 * aml.cases.store.ts); every tenant-owned read filters by tenant.
 */

/** Events of a tenant by transaction_id: their keys, then each in the one partition its occurred_at names. */
const byTransaction = (db: Executor, tenantId: string, transactionIds: string[]) =>
  db
    .selectFrom('aml_event_keys as k')
    .innerJoin('aml_events as e', (join) =>
      join.onRef('e.event_id', '=', 'k.event_id').onRef('e.occurred_at', '=', 'k.occurred_at'),
    )
    .where('k.tenant_id', '=', tenantId)
    .where('k.transaction_id', 'in', transactionIds);

export function findEventByTransaction(db: Executor, tenantId: string, transactionId: string) {
  return byTransaction(db, tenantId, [transactionId])
    .select(['e.event_id', 'e.occurred_at', 'e.received_at', 'e.request_hash', 'e.status'])
    .executeTakeFirst();
}

/**
 * Records the outcome of a pending event (succeeded or failed) and queues it for evaluation again, in one statement;
 * undefined when the event is no longer pending (a concurrent report settled it first).
 */
export async function settlePendingEvent(
  db: Executor,
  event: { event_id: string; occurred_at: Date },
  status: 'succeeded' | 'failed',
  at: Date,
): Promise<{ event_id: string } | undefined> {
  return db
    .with('settled', (qb) =>
      qb
        .updateTable('aml_events')
        .set({ status, settled_at: at })
        .where('event_id', '=', event.event_id)
        .where('occurred_at', '=', event.occurred_at)
        .where('status', '=', 'pending')
        .returning(['event_id', 'occurred_at']),
    )
    .with('queued', (qb) =>
      qb
        .insertInto('aml_evaluation_queue')
        .columns(['event_id', 'received_at', 'occurred_at'])
        .expression((eb) =>
          eb
            .selectFrom('settled')
            .select(['event_id', sql<Date>`${at}::timestamptz`.as('received_at'), 'occurred_at']),
        ),
    )
    .selectFrom('settled')
    .select('event_id')
    .executeTakeFirst();
}

/**
 * Takes the oldest events off the evaluation queue and returns them, oldest first. The queue rows are locked
 * (other processes skip them) and deleted in the caller's transaction: they are back in the queue if it rolls
 * back, and gone for good when it commits.
 */
const dequeueStatement = precompiled((db, param: Param<{ limit: number }>) =>
  db
    .with('taken', (qb) =>
      qb
        .deleteFrom('aml_evaluation_queue')
        .where(
          sql<string>`ctid`,
          '=',
          sql<string>`any(array(select ctid from aml_evaluation_queue order by received_at limit ${param('limit')}
            for update skip locked))`,
        )
        .returning(['event_id', 'occurred_at']),
    )
    .selectFrom('aml_events')
    // The queue row's occurred_at prunes the read to the partition that holds the event.
    .innerJoin('taken', (join) =>
      join
        .onRef('taken.event_id', '=', 'aml_events.event_id')
        .onRef('taken.occurred_at', '=', 'aml_events.occurred_at'),
    )
    .selectAll('aml_events')
    .orderBy('aml_events.received_at')
    .orderBy('aml_events.event_id'),
);

export function dequeueEvents(db: Executor, limit: number): Promise<AmlEvent[]> {
  return dequeueStatement.execute(db, { limit });
}

/**
 * The evaluation queue's state: the oldest queued event's time and how many wait, counted up to `cap` (then `cap`):
 * read at most `cap` entries of aml_evaluation_queue_order, however long the queue.
 */
export async function evaluationBacklog(
  db: Executor,
  cap: number,
): Promise<{ waiting: number; oldestAt: Date | null }> {
  const row = await db
    .selectFrom((qb) =>
      qb
        .selectFrom('aml_evaluation_queue')
        .select('received_at')
        .orderBy('received_at')
        .limit(cap)
        .as('head'),
    )
    .select([sql<number>`count(*)::int`.as('waiting'), sql<Date | null>`min(received_at)`.as('oldest_at')])
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), oldestAt: row.oldest_at };
}

/** Takes events off the evaluation queue in the caller's transaction, which schedules their retries (see aml.evaluator.ts). */
export async function dropFromQueue(db: Executor, eventIds: string[]): Promise<number> {
  if (eventIds.length === 0) return 0;
  const result = await db
    .deleteFrom('aml_evaluation_queue')
    .where('event_id', 'in', eventIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function findEvent(db: Executor, eventId: string): Promise<AmlEvent | undefined> {
  return db.selectFrom('aml_events').selectAll().where('event_id', '=', eventId).executeTakeFirst();
}

export function eventsByTransaction(
  db: Executor,
  tenantId: string,
  transactionIds: string[],
): Promise<AmlEvent[]> {
  if (transactionIds.length === 0) return Promise.resolve([]);
  return byTransaction(db, tenantId, transactionIds).selectAll('e').orderBy('e.occurred_at').execute();
}

/** The R-009 window the tenant has set, if any. */
export async function r009WindowSetting(db: Executor, tenantId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('aml_settings')
    .select('r009_window_seconds')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row?.r009_window_seconds;
}

export async function saveR009Window(
  db: Executor,
  tenantId: string,
  seconds: number,
  at: Date,
): Promise<void> {
  await db
    .insertInto('aml_settings')
    .values({ tenant_id: tenantId, r009_window_seconds: seconds, updated_at: at })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ r009_window_seconds: seconds, updated_at: at }))
    .execute();
}

export function findScreen(db: Executor, tenantId: string, withdrawalId: string) {
  return db
    .selectFrom('aml_screens')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('withdrawal_id', '=', withdrawalId)
    .executeTakeFirst();
}
