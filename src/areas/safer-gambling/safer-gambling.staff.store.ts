import type { Executor } from '../../platform/db/database.js';

/** Lifts the contest flag; the player leaves the staff's queue unless their interaction is also overdue. */
export async function clearContested(db: Executor, tenantId: string, userId: string, at: Date) {
  await db
    .updateTable('sg_players')
    .set({ contested_at: null, contested_interaction_id: null, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
}
