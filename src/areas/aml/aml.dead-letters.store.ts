import { sql } from 'kysely';
import { countRows } from '../../platform/db/count.js';
import type { Executor } from '../../platform/db/database.js';
import { keysetAfter } from '../../platform/db/keyset.js';
import type { AmlDeadLetter } from './aml.tables.js';

/** Plain queries over the dead letters: events whose evaluation kept failing. */

/** Stores a dead letter unless the event has one not yet re-driven; returns it when stored. */
export function insertDeadLetter(
  db: Executor,
  row: Omit<AmlDeadLetter, 'redriven_at' | 'redriven_by'>,
): Promise<AmlDeadLetter | undefined> {
  return db
    .insertInto('aml_dead_letters')
    .values({ ...row, redriven_at: null, redriven_by: null })
    .onConflict((oc) => oc.column('event_id').where('redriven_at', 'is', null).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Dead letters not yet re-driven: events whose evaluation still waits on the staff. */
export async function countUnresolvedDeadLetters(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('aml_dead_letters')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('redriven_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Oldest first; `after` is the dead_letter_id of the last row of the previous page. */
export function listDeadLetters(
  db: Executor,
  filter: { tenantId?: string | undefined; redriven: boolean; after?: string | undefined; limit: number },
) {
  let query = db
    .selectFrom('aml_dead_letters as d')
    .innerJoin('aml_events as e', 'e.event_id', 'd.event_id')
    .selectAll('d')
    .select(['e.user_id', 'e.event_type', 'e.transaction_id', 'e.occurred_at'])
    .where('d.redriven_at', filter.redriven ? 'is not' : 'is', null);
  if (filter.tenantId) query = query.where('d.tenant_id', '=', filter.tenantId);
  if (filter.after) {
    const after = filter.after;
    const afterAt = sql`(select dead_lettered_at from aml_dead_letters where dead_letter_id = ${after})`;
    query = query.where(keysetAfter(['d.dead_lettered_at', 'd.dead_letter_id'], [afterAt, after]));
  }
  return query.orderBy('d.dead_lettered_at').orderBy('d.dead_letter_id').limit(filter.limit).execute();
}

export function findDeadLetter(db: Executor, deadLetterId: string, forUpdate = false) {
  const query = db.selectFrom('aml_dead_letters').selectAll().where('dead_letter_id', '=', deadLetterId);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export function markRedriven(db: Executor, deadLetterId: string, by: string, at: Date) {
  return db
    .updateTable('aml_dead_letters')
    .set({ redriven_at: at, redriven_by: by })
    .where('dead_letter_id', '=', deadLetterId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Puts an event back in the evaluation queue (at its end), with the occurred_at that names its partition. */
export async function requeueEvent(db: Executor, eventId: string, at: Date): Promise<void> {
  await db
    .insertInto('aml_evaluation_queue')
    .columns(['event_id', 'received_at', 'occurred_at'])
    .expression((eb) =>
      eb
        .selectFrom('aml_events')
        .select(['event_id', sql<Date>`${at}::timestamptz`.as('received_at'), 'occurred_at'])
        .where('event_id', '=', eventId),
    )
    .execute();
}

/** How many dead letters wait for a redrive, at most `limit` (aml_dead_letters_pending, a partial index). */
export function countPendingDeadLetters(db: Executor, limit: number): Promise<number> {
  return countRows(
    db,
    db
      .selectFrom('aml_dead_letters')
      .select(sql.lit(1).as('one'))
      .where('redriven_at', 'is', null)
      .limit(limit),
  );
}
