import { sql, type Insertable } from 'kysely';
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
  SgTenantSettingsTable,
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

export function findInteraction(db: Executor, tenantId: string, interactionId: string) {
  return db
    .selectFrom('sg_interactions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('interaction_id', '=', interactionId)
    .executeTakeFirst();
}

/** A player's interactions, newest first (by when they occurred, then when recorded). */
export function interactionsOfUser(db: Executor, tenantId: string, userId: string, max: number) {
  return db
    .selectFrom('sg_interactions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('occurred_at', 'desc')
    .orderBy('recorded_at', 'desc')
    .orderBy('interaction_id', 'desc')
    .limit(max)
    .execute();
}

/** The financial checks called for a player, newest first. */
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

/**
 * What the player status needs of a player's standing, in one statement (it runs at every login): the level, whether
 * an interaction is due, and the tenant's policy overrides. No row for a player at level none: nothing follows.
 */
export function standingRow(db: Executor, tenantId: string, userId: string) {
  return db
    .selectFrom('sg_players as p')
    .select(['p.risk_level', 'p.interaction_due_at'])
    .select((eb) =>
      eb
        .selectFrom('sg_tenant_settings as s')
        .select('s.policy')
        .where('s.tenant_id', '=', tenantId)
        .as('policy'),
    )
    .where('p.tenant_id', '=', tenantId)
    .where('p.user_id', '=', userId)
    .where('p.risk_level', '<>', 'none')
    .executeTakeFirst();
}

export async function saveTenantSettings(
  db: Executor,
  row: Insertable<SgTenantSettingsTable>,
): Promise<void> {
  const { tenant_id: _t, ...changes } = row;
  await db
    .insertInto('sg_tenant_settings')
    .values(row)
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet(changes))
    .execute();
}

/** Whether PostgreSQL knows this time zone by its name (an IANA name; abbreviations and POSIX strings are not names). */
export async function timeZoneKnown(db: Executor, name: string): Promise<boolean> {
  const { rows } = await sql<{ known: boolean }>`
    select exists (select 1 from pg_timezone_names where name = ${name}) as known`.execute(db);
  return rows[0]?.known === true;
}
