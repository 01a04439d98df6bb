import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { ErasureRequestsTable, PlayerClosureRow, PlayerClosuresTable } from './players.tables.js';

/** Stores a closure unless the player's is stored already; answers the stored one either way. */
export async function insertClosure(
  db: Executor,
  row: Insertable<PlayerClosuresTable>,
): Promise<{ stored: PlayerClosureRow; created: boolean }> {
  const inserted = await db
    .insertInto('player_closures')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { stored: inserted, created: true };
  const stored = await db
    .selectFrom('player_closures')
    .selectAll()
    .where('tenant_id', '=', row.tenant_id)
    .where('user_id', '=', row.user_id)
    .executeTakeFirstOrThrow();
  return { stored, created: false };
}

/** The player's closure, recorded under their id or, once an erasure pseudonymised it, under their pseudonym. */
export async function findClosure(db: Executor, tenantId: string, userIds: readonly string[]) {
  return db
    .selectFrom('player_closures')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', 'in', userIds)
    .executeTakeFirst();
}

export function findErasureRequest(db: Executor, tenantId: string, erasureRequestId: string) {
  return db
    .selectFrom('erasure_requests')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('erasure_request_id', '=', erasureRequestId)
    .executeTakeFirst();
}

/** A player's erasure requests, oldest first, found by the player's pseudonym. */
export function erasureRequestsOf(db: Executor, tenantId: string, pseudonym: string) {
  return db
    .selectFrom('erasure_requests')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('pseudonym', '=', pseudonym)
    .orderBy('recorded_at')
    .orderBy('erasure_request_id')
    .execute();
}

export async function insertErasureRequest(db: Executor, row: Insertable<ErasureRequestsTable>) {
  return db.insertInto('erasure_requests').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateErasureRequest(
  db: Executor,
  tenantId: string,
  erasureRequestId: string,
  changes: Updateable<ErasureRequestsTable>,
) {
  return db
    .updateTable('erasure_requests')
    .set(changes)
    .where('tenant_id', '=', tenantId)
    .where('erasure_request_id', '=', erasureRequestId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The requests still waiting on records that protected the player (their id is kept in clear for them). */
export function erasuresInProgress(db: Executor, tenantId: string, userId: string) {
  return db
    .selectFrom('erasure_requests')
    .select('erasure_request_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('status', '=', 'in_progress')
    .execute();
}
