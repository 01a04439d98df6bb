import type { Executor } from '../../platform/db/database.js';

/** What the staff read of one player's safer gambling beyond the standing: newest first, a page's worth. */

export function interactionsOfUser(db: Executor, tenantId: string, userId: string, max: number) {
  return db
    .selectFrom('sg_interactions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('occurred_at', 'desc')
    .orderBy('interaction_id', 'desc')
    .limit(max)
    .execute();
}

export function financialChecksOfUser(db: Executor, tenantId: string, userId: string, max: number) {
  return db
    .selectFrom('sg_financial_checks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('called_at', 'desc')
    .orderBy('check_id', 'desc')
    .limit(max)
    .execute();
}

/** Lifts the contest flag; the player leaves the staff's queue unless their interaction is also overdue. */
export async function clearContested(db: Executor, tenantId: string, userId: string, at: Date) {
  await db
    .updateTable('sg_players')
    .set({ contested_at: null, contested_interaction_id: null, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
}
