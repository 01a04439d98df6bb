import type { Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { PlayerClosureRow, PlayerClosuresTable } from './players.tables.js';

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
