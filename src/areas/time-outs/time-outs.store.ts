import { sql, type Insertable, type Transaction } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import { lockSubject } from '../../platform/db/subject-lock.js';
import type { TimeOutRow, TimeOutsTable, TimeOutStatus } from './time-outs.tables.js';

/** Plain queries on time_outs, always scoped to a tenant; the business rules live in the rules and the verbs. */

/** Serialises the time-out requests of one player: the decision reads the one in force, then writes. */
export async function lockUser(tx: Executor, tenantId: string, userId: string): Promise<void> {
  await lockSubject(tx, 'time-outs', tenantId, userId);
}

/** The player's rows marked active (at most one: a unique index). */
const activeRows = (db: Executor, tenantId: string, userId: string) =>
  db
    .selectFrom('time_outs')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('status', '=', 'active');

/** The player's row marked active, whether or not its ends_at has passed (its end job may be late). */
export function findActiveRow(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<TimeOutRow | undefined> {
  return activeRows(db, tenantId, userId).executeTakeFirst();
}

/** The time-out in force for the player at `at`, if any: active and not yet at its ends_at. */
export function activeTimeOut(
  db: Executor,
  tenantId: string,
  userId: string,
  at: Date,
): Promise<TimeOutRow | undefined> {
  return activeRows(db, tenantId, userId).where('ends_at', '>', at).executeTakeFirst();
}

export type TimeOutWithStatus = TimeOutRow & { status: TimeOutStatus };

/**
 * The player's time-outs, newest first, each with its status at `at`: a row still marked active whose ends_at has
 * passed (its end job not run yet) has ended all the same.
 */
export function timeOutsOfUser(
  db: Executor,
  tenantId: string,
  userId: string,
  at: Date,
  limit = 100,
): Promise<TimeOutWithStatus[]> {
  return db
    .selectFrom('time_outs')
    .select([
      'time_out_id',
      'tenant_id',
      'user_id',
      'duration',
      'reason',
      'initiated_at',
      'channel',
      'starts_at',
      'ends_at',
      'extends_time_out_id',
      'left_active_at',
      sql<TimeOutStatus>`case when status = 'active' and ends_at <= ${at} then 'ended' else status end`.as(
        'status',
      ),
    ])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('starts_at', 'desc')
    .orderBy('time_out_id', 'desc')
    .limit(limit)
    .execute();
}

export function insertTimeOut(tx: Transaction<DB>, values: Insertable<TimeOutsTable>): Promise<TimeOutRow> {
  return tx.insertInto('time_outs').values(values).returningAll().executeTakeFirstOrThrow();
}

/** active → superseded at `at`; undefined if it was no longer active (its end job ran meanwhile). */
export function markSuperseded(
  tx: Transaction<DB>,
  tenantId: string,
  timeOutId: string,
  at: Date,
): Promise<TimeOutRow | undefined> {
  return tx
    .updateTable('time_outs')
    .set({ status: 'superseded', left_active_at: at })
    .where('tenant_id', '=', tenantId)
    .where('time_out_id', '=', timeOutId)
    .where('status', '=', 'active')
    .returningAll()
    .executeTakeFirst();
}

/** active → ended, at its ends_at, once `now` has reached it; undefined if already ended or superseded. */
export function markEnded(
  tx: Transaction<DB>,
  tenantId: string,
  timeOutId: string,
  now: Date,
): Promise<TimeOutRow | undefined> {
  return tx
    .updateTable('time_outs')
    .set((eb) => ({ status: 'ended', left_active_at: eb.ref('ends_at') }))
    .where('tenant_id', '=', tenantId)
    .where('time_out_id', '=', timeOutId)
    .where('status', '=', 'active')
    .where('ends_at', '<=', now)
    .returningAll()
    .executeTakeFirst();
}
