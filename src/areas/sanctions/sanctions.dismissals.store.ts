import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { SanctionsDismissal, SanctionsDismissalsTable } from './sanctions.tables.js';

/**
 * The reviewers' remembered dismissals: written when a case is cleared, read by every screening of a player already
 * screened, listed and ended by staff. Staff records, across tenants; a player's are addressed by tenant and user.
 */

/** The dismissals in force for these screens. */
export function dismissalsInForce(db: Executor, screenIds: string[]): Promise<SanctionsDismissal[]> {
  if (screenIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('sanctions_dismissals')
    .selectAll()
    .where('screen_id', 'in', screenIds)
    .where('ended_at', 'is', null)
    .execute();
}

/** Records new dismissals, ending any in force for the same screen, list and entity (superseded by this case). */
export async function recordDismissals(
  tx: Executor,
  rows: Insertable<SanctionsDismissalsTable>[],
  at: Date,
): Promise<void> {
  for (const row of rows) {
    await tx
      .updateTable('sanctions_dismissals')
      .set({ ended_at: at, ended_by: row.dismissed_by ?? null, end_reason: `superseded by ${row.case_id}` })
      .where('screen_id', '=', row.screen_id)
      .where('list', '=', row.list)
      .where('entity_id', '=', row.entity_id)
      .where('ended_at', 'is', null)
      .execute();
  }
  if (rows.length > 0) await tx.insertInto('sanctions_dismissals').values(rows).execute();
}

/** A player's dismissals, in force first, newest first. */
export function listDismissals(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<SanctionsDismissal[]> {
  return db
    .selectFrom('sanctions_dismissals')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy(sql`ended_at is null`, 'desc')
    .orderBy('dismissed_at', 'desc')
    .orderBy('dismissal_id')
    .execute();
}

/** Earlier dismissals of these entities for one screen, before an instant (what a reopened match was before). */
export function dismissalsBefore(
  db: Executor,
  screenId: string,
  pairs: Array<{ list: string; entity_id: string }>,
  before: Date,
): Promise<SanctionsDismissal[]> {
  if (pairs.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('sanctions_dismissals')
    .selectAll()
    .where('screen_id', '=', screenId)
    .where('dismissed_at', '<', before)
    .where((eb) =>
      eb.or(pairs.map((p) => eb.and([eb('list', '=', p.list), eb('entity_id', '=', p.entity_id)]))),
    )
    .orderBy('dismissed_at', 'desc')
    .execute();
}

export function lockDismissal(tx: Executor, dismissalId: string): Promise<SanctionsDismissal | undefined> {
  return tx
    .selectFrom('sanctions_dismissals')
    .selectAll()
    .where('dismissal_id', '=', dismissalId)
    .forUpdate()
    .executeTakeFirst();
}

export function endDismissal(
  tx: Executor,
  dismissalId: string,
  end: { ended_at: Date; ended_by: string; end_reason: string },
): Promise<SanctionsDismissal> {
  return tx
    .updateTable('sanctions_dismissals')
    .set(end)
    .where('dismissal_id', '=', dismissalId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
