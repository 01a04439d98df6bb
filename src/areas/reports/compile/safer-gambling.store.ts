import { sql } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import type { Keyset, Period } from '../reports.sources.store.js';

/**
 * The safer-gambling report's reads of the safer-gambling area's tables (read-only, each a keyset page in
 * (time, id) order or bounded by the period). Every row is stamped by the service clock when it is recorded
 * (a trip, an interaction's receipt, a check called for), so nothing of a compiled month can arrive late.
 */

const afterKeyset = (column: string, idColumn: string, after: Keyset | null) =>
  after ? sql`and (${sql.ref(column)}, ${sql.ref(idColumn)}) > (${after.at}, ${after.id})` : sql``;

const inPeriod = (column: string, period: Period) =>
  sql`tenant_id = ${period.tenantId} and ${sql.ref(column)} >= ${period.start} and ${sql.ref(column)} < ${period.end}
    and ${sql.ref(column)} <= ${period.hwm}`;

export interface TripSource {
  trip_id: string;
  user_id: string;
  code: string;
  level: string;
  measured_value: number;
  threshold: number;
  at: Date;
}

/** The markers tripped in the period (recorded trips: activations and renewals that measured more). */
export async function markerTrips(db: Executor, period: Period, after: Keyset | null, limit: number) {
  const { rows } = await sql<TripSource>`
    select trip_id, user_id, code, level, measured_value, threshold, tripped_at as at from sg_marker_trips
    where ${inPeriod('tripped_at', period)} ${afterKeyset('tripped_at', 'trip_id', after)}
    order by tripped_at, trip_id limit ${limit}`.execute(db);
  return rows;
}

export interface InteractionSource {
  interaction_id: string;
  user_id: string;
  kind: string;
  outcome: string;
  occurred_at: Date;
  settled_due_at: Date | null;
  at: Date;
}

const INTERACTION_COLUMNS = sql`interaction_id, user_id, kind, outcome, occurred_at, settled_due_at,
  recorded_at as at`;

/** The interactions the operator recorded in the period (by receipt: the operator may report a call later). */
export async function interactions(db: Executor, period: Period, after: Keyset | null, limit: number) {
  const { rows } = await sql<InteractionSource>`
    select ${INTERACTION_COLUMNS} from sg_interactions
    where ${inPeriod('recorded_at', period)} ${afterKeyset('recorded_at', 'interaction_id', after)}
    order by recorded_at, interaction_id limit ${limit}`.execute(db);
  return rows;
}

/** Interactions recorded in the period after the due time of the interaction they settled: settled late. */
export async function settledLate(db: Executor, period: Period) {
  const { rows } = await sql<InteractionSource>`
    select ${INTERACTION_COLUMNS} from sg_interactions
    where ${inPeriod('recorded_at', period)} and settled_due_at is not null and recorded_at > settled_due_at
    order by recorded_at, interaction_id`.execute(db);
  return rows;
}

/**
 * Interactions owed past their due time when the period ended: still owed now and due before its end, or settled
 * only at or after its end (by an interaction recorded then). One row per player and due time.
 */
export async function openAtEnd(db: Executor, period: Period) {
  const { rows } = await sql<{ user_id: string; due_at: Date }>`
    select user_id, interaction_due_at as due_at from sg_players
    where tenant_id = ${period.tenantId} and interaction_due_at < ${period.end}
    union
    select user_id, settled_due_at as due_at from sg_interactions
    where tenant_id = ${period.tenantId} and settled_due_at < ${period.end} and recorded_at >= ${period.end}
    order by due_at, user_id`.execute(db);
  return rows;
}

export interface FinancialCheckSource {
  check_id: string;
  user_id: string;
  level: string;
  window_name: string;
  net_deposits_cents: number;
  currency: string;
  threshold_cents: number;
  at: Date;
}

/** The financial checks called for in the period. */
export async function financialChecks(db: Executor, period: Period, after: Keyset | null, limit: number) {
  const { rows } = await sql<FinancialCheckSource>`
    select check_id, user_id, level, window_name, net_deposits_cents, currency, threshold_cents, called_at as at
    from sg_financial_checks
    where ${inPeriod('called_at', period)} ${afterKeyset('called_at', 'check_id', after)}
    order by called_at, check_id limit ${limit}`.execute(db);
  return rows;
}
