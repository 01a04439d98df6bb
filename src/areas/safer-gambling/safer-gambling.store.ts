import type { Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { lockSubject } from '../../platform/db/subject-lock.js';
import type { MarkerCode } from './safer-gambling.markers.js';
import type {
  SgInteractionsTable,
  SgMarkerTripsTable,
  SgPlayerMarkerRow,
  SgPlayerMarkersTable,
  SgPlayerRow,
  SgPlayersTable,
  SgTenantSettingsRow,
} from './safer-gambling.tables.js';

/** Serialises changes to one player's safer-gambling standing (trips, reviews, expiries, interactions). */
export const lockPlayer = (tx: Executor, tenantId: string, userId: string) =>
  lockSubject(tx, 'safer-gambling', tenantId, userId);

export function findTenantSettings(db: Executor, tenantId: string): Promise<SgTenantSettingsRow | undefined> {
  return db.selectFrom('sg_tenant_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
}

export function findPlayer(db: Executor, tenantId: string, userId: string): Promise<SgPlayerRow | undefined> {
  return db
    .selectFrom('sg_players')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function upsertPlayer(db: Executor, row: Insertable<SgPlayersTable>): Promise<void> {
  const { tenant_id: _t, user_id: _u, ...changes } = row;
  await db
    .insertInto('sg_players')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doUpdateSet(changes))
    .execute();
}

export function playerMarkers(db: Executor, tenantId: string, userId: string): Promise<SgPlayerMarkerRow[]> {
  return db
    .selectFrom('sg_player_markers')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('code')
    .execute();
}

export async function upsertPlayerMarker(db: Executor, row: Insertable<SgPlayerMarkersTable>): Promise<void> {
  const { tenant_id: _t, user_id: _u, code: _c, first_tripped_at: _f, ...changes } = row;
  await db
    .insertInto('sg_player_markers')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'code']).doUpdateSet(changes))
    .execute();
}

/** Marks the player's active markers reviewed by an interaction: inactive, quiet until reviewQuietUntil. */
export async function reviewMarkers(
  db: Executor,
  tenantId: string,
  userId: string,
  codes: MarkerCode[],
  review: { at: Date; quietUntil: Date; interactionId: string },
): Promise<void> {
  if (codes.length === 0) return;
  await db
    .updateTable('sg_player_markers')
    .set((eb) => ({
      active_until: null,
      reviewed_at: review.at,
      reviewed_value: eb.ref('measured_value'),
      review_quiet_until: review.quietUntil,
      reviewed_by_interaction_id: review.interactionId,
    }))
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('code', 'in', codes)
    .execute();
}

export async function insertTrips(db: Executor, rows: Insertable<SgMarkerTripsTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('sg_marker_trips').values(rows).execute();
}

export function tripsOfUser(db: Executor, tenantId: string, userId: string, max: number) {
  return db
    .selectFrom('sg_marker_trips')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('tripped_at', 'desc')
    .orderBy('trip_id', 'desc')
    .limit(max)
    .execute();
}

export async function insertInteraction(
  db: Executor,
  row: Insertable<SgInteractionsTable>,
): Promise<boolean> {
  const inserted = await db
    .insertInto('sg_interactions')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_id', 'interaction_id']).doNothing())
    .returning('interaction_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
