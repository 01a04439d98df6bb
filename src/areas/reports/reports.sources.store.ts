import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { Environment } from '../../platform/db/platform-tables.js';

/**
 * The reports' reads of what the other areas stored: read-only statements, each a keyset page or an aggregate, so a
 * compilation never holds a period's data in memory. They read the areas' tables directly because a report is a
 * read model over all of them; no business rule of another area is decided here. Every statement is bounded by the
 * report's high-water mark (`hwm`): a row known after it belongs to a later version. A money event is known from its
 * receipt, or, for one received pending, from its outcome (`settled_at`).
 */

/** When the service learned a money event's outcome. */
const KNOWN_AT = sql.raw('coalesce(settled_at, received_at)');

export interface Period {
  tenantId: string;
  start: Date;
  end: Date;
  hwm: Date;
}

export interface ThresholdGroup {
  day: string;
  user_id: string;
  event_type: 'deposit' | 'withdrawal';
}

/**
 * A page of the (UTC day, player, direction) groups whose succeeded transactions reach `thresholdUsdCents`, after
 * the keyset `after`. A single transaction at or over the threshold makes its group qualify by itself.
 */
export async function thresholdGroups(
  db: Executor,
  period: Period,
  thresholdUsdCents: number,
  after: ThresholdGroup | null,
  limit: number,
): Promise<(ThresholdGroup & { total_usd_cents: string; transactions: string })[]> {
  const keyset = after
    ? sql`and (day, user_id, event_type) > (${after.day}, ${after.user_id}, ${after.event_type})`
    : sql``;
  const { rows } = await sql<ThresholdGroup & { total_usd_cents: string; transactions: string }>`
    select * from (
      select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD') as day, user_id, event_type,
             sum(usd_cents)::text as total_usd_cents, count(*)::text as transactions
      from aml_events
      where tenant_id = ${period.tenantId} and occurred_at >= ${period.start} and occurred_at < ${period.end}
        and ${KNOWN_AT} <= ${period.hwm} and event_type in ('deposit', 'withdrawal') and status = 'succeeded'
      group by 1, 2, 3
      having sum(usd_cents) >= ${thresholdUsdCents}
    ) g
    where true ${keyset}
    order by day, user_id, event_type
    limit ${limit}`.execute(db);
  return rows;
}

export interface ThresholdTransaction {
  day: string;
  user_id: string;
  event_type: 'deposit' | 'withdrawal';
  event_id: string;
  transaction_id: string;
  amount_cents: number;
  currency: string;
  usd_cents: number;
  occurred_at: Date;
}

/** Every succeeded transaction of the given groups (one statement, on the (tenant, user, occurred_at) index). */
export async function groupTransactions(
  db: Executor,
  period: Period,
  groups: ThresholdGroup[],
): Promise<ThresholdTransaction[]> {
  if (groups.length === 0) return [];
  const { rows } = await sql<ThresholdTransaction>`
    select g.day, e.user_id, e.event_type, e.event_id, e.transaction_id, e.amount_cents::integer as amount_cents,
           e.currency, e.usd_cents::integer as usd_cents, e.occurred_at
    from unnest(${groups.map((g) => g.day)}::text[], ${groups.map((g) => g.user_id)}::text[],
                ${groups.map((g) => g.event_type)}::text[]) as g(day, user_id, event_type)
    join aml_events e on e.tenant_id = ${period.tenantId} and e.user_id = g.user_id and e.event_type = g.event_type
      and e.occurred_at >= (g.day::date::timestamp at time zone 'UTC')
      and e.occurred_at < ((g.day::date + 1)::timestamp at time zone 'UTC')
      and coalesce(e.settled_at, e.received_at) <= ${period.hwm} and e.status = 'succeeded'
    order by g.day, e.user_id, e.event_type, e.occurred_at, e.event_id`.execute(db);
  return rows;
}

/** The players' approved KYC checks, from which their tier at any time follows (a tier is only ever raised). */
export function approvedTiers(db: Executor, tenantId: string, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('kyc_checks')
    .select(['user_id', 'required_tier', 'decided_at'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', 'in', userIds)
    .where('status', '=', 'approved')
    .where('decided_at', 'is not', null)
    .execute();
}

/** The players' AML cases with their transactions and current status (never their rules: tipping-off). */
export function casesOf(db: Executor, tenantId: string, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('aml_cases')
    .select(['case_id', 'user_id', 'status', 'transaction_ids', 'opened_at'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', 'in', userIds)
    .orderBy('opened_at')
    .execute();
}

/** When the last money event of the period, or its outcome, became known (late data when after a version's mark). */
export async function latestReceipt(db: Executor, tenantId: string, start: Date, end: Date) {
  const row = await db
    .selectFrom('aml_events')
    .select(sql`max(${KNOWN_AT})`.as('latest'))
    .where('tenant_id', '=', tenantId)
    .where('occurred_at', '>=', start)
    .where('occurred_at', '<', end)
    .where('event_type', 'in', ['deposit', 'withdrawal'])
    .executeTakeFirst();
  return row?.latest ? new Date(row.latest as Date) : null;
}

/** The (tenant, UTC day) pairs that learned of money events, or their outcomes, since `since` for days before `before`. */
export async function lateDays(db: Executor, since: Date, before: Date) {
  const { rows } = await sql<{ tenant_id: string; day: string }>`
    select distinct tenant_id, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD') as day
    from aml_events
    where ${KNOWN_AT} > ${since} and occurred_at < ${before} and event_type in ('deposit', 'withdrawal')
    order by 1, 2`.execute(db);
  return rows;
}

// The self-limitation report's sources, each a keyset page in (time, id) order.

export interface Keyset {
  at: Date;
  id: string;
}

const afterKeyset = (column: string, idColumn: string, after: Keyset | null) =>
  after ? sql`and (${sql.ref(column)}, ${sql.ref(idColumn)}) > (${after.at}, ${after.id})` : sql``;

export interface LimitChange {
  limit_id: string;
  user_id: string;
  limit_kind: string;
  limit_type: string;
  /** Seconds for a play_time limit, which has no currency. */
  amount_cents: number;
  currency: string | null;
  current_limit_cents: number | null;
  is_increase: boolean;
  cooloff_seconds: number;
  effective_from: Date;
  at: Date;
}

const LIMIT_COLUMNS = sql`limit_id, user_id, limit_kind, limit_type, amount_cents::integer as amount_cents, currency,
  current_limit_cents::integer as current_limit_cents, is_increase, cooloff_seconds, effective_from`;

/** Limit changes of every kind requested in the period (a first set, a decrease, an increase that starts its cool-off). */
export async function limitsRequested(db: Executor, period: Period, after: Keyset | null, limit: number) {
  const { rows } = await sql<LimitChange>`
    select ${LIMIT_COLUMNS}, created_at as at from deposit_limits
    where tenant_id = ${period.tenantId} and created_at >= ${period.start} and created_at < ${period.end}
      and created_at <= ${period.hwm} ${afterKeyset('created_at', 'limit_id', after)}
    order by created_at, limit_id limit ${limit}`.execute(db);
  return rows;
}

/** Increases whose cool-off ended in the period: in force from effective_from, whether or not its job has run. */
export async function limitsActivated(db: Executor, period: Period, after: Keyset | null, limit: number) {
  const { rows } = await sql<LimitChange>`
    select ${LIMIT_COLUMNS}, effective_from as at from deposit_limits
    where tenant_id = ${period.tenantId} and is_increase and status <> 'cancelled'
      and effective_from >= ${period.start} and effective_from < ${period.end} and effective_from <= ${period.hwm}
      ${afterKeyset('effective_from', 'limit_id', after)}
    order by effective_from, limit_id limit ${limit}`.execute(db);
  return rows;
}

/** Pending increases cancelled in the period (by DELETE or by a decrease). */
export async function limitsCancelled(db: Executor, period: Period, after: Keyset | null, limit: number) {
  const { rows } = await sql<LimitChange>`
    select ${LIMIT_COLUMNS}, ended_at as at from deposit_limits
    where tenant_id = ${period.tenantId} and status = 'cancelled'
      and ended_at >= ${period.start} and ended_at < ${period.end} and ended_at <= ${period.hwm}
      ${afterKeyset('ended_at', 'limit_id', after)}
    order by ended_at, limit_id limit ${limit}`.execute(db);
  return rows;
}

/**
 * Rejected checks of one limit kind (limit.breach_attempt, from the outbox) per player, keyset on the player. A
 * rejected stake's event names its limit_kind; a deposit check's names none.
 */
export async function breachAttempts(
  db: Executor,
  period: Period,
  limitKind: string,
  afterUser: string | null,
  limit: number,
) {
  const keyset = afterUser === null ? sql`` : sql`where user_id > ${afterUser}`;
  const kind = sql`payload::jsonb -> 'data' ->> 'limit_kind'`;
  const ofKind = limitKind === 'deposit' ? sql`${kind} is null` : sql`${kind} = ${limitKind}`;
  const { rows } = await sql<{ user_id: string; attempts: string; first_at: Date; last_at: Date }>`
    select * from (
      select payload::jsonb -> 'data' ->> 'user_id' as user_id, count(*)::text as attempts,
             min(created_at) as first_at, max(created_at) as last_at
      from events
      where tenant_id = ${period.tenantId} and event = 'limit.breach_attempt'
        and ${ofKind}
        and created_at >= ${period.start} and created_at < ${period.end} and created_at <= ${period.hwm}
      group by 1
    ) b ${keyset}
    order by user_id limit ${limit}`.execute(db);
  return rows;
}

export interface ExclusionChange {
  exclusion_id: string;
  user_id: string | null;
  duration: string;
  channel: string;
  at: Date;
}

type ExclusionMoment = 'registered' | 'expired' | 'voided';

/** The tenant's own register rows registered, expired (not voided first) or voided in the period. */
export async function exclusionChanges(
  db: Executor,
  period: Period,
  moment: ExclusionMoment,
  after: Keyset | null,
  limit: number,
) {
  const column = { registered: 'effective_from', expired: 'expires_at', voided: 'voided_at' }[moment];
  const notVoidedFirst =
    moment === 'expired' ? sql`and (voided_at is null or voided_at > expires_at)` : sql``;
  const { rows } = await sql<ExclusionChange>`
    select exclusion_id, user_id, duration, channel, ${sql.ref(column)} as at from exclusions
    where tenant_id = ${period.tenantId} and ${sql.ref(column)} >= ${period.start}
      and ${sql.ref(column)} < ${period.end} and ${sql.ref(column)} <= ${period.hwm} ${notVoidedFirst}
      ${afterKeyset(column, 'exclusion_id', after)}
    order by ${sql.ref(column)}, exclusion_id limit ${limit}`.execute(db);
  return rows;
}

export interface TimeOutChange {
  time_out_id: string;
  user_id: string;
  duration: string;
  channel: string;
  extends_time_out_id: string | null;
  at: Date;
}

/**
 * The tenant's time-outs started in the period (fresh ones and extensions, at receipt), or ended in it: at ends_at
 * of those not superseded (an extended one never ends by itself), whether or not the end's job has run yet.
 */
export async function timeOutChanges(
  db: Executor,
  period: Period,
  moment: 'started' | 'ended',
  after: Keyset | null,
  limit: number,
) {
  const column = moment === 'started' ? 'starts_at' : 'ends_at';
  const notSuperseded = moment === 'ended' ? sql`and status <> 'superseded'` : sql``;
  const { rows } = await sql<TimeOutChange>`
    select time_out_id, user_id, duration, channel, extends_time_out_id, ${sql.ref(column)} as at from time_outs
    where tenant_id = ${period.tenantId} and ${sql.ref(column)} >= ${period.start}
      and ${sql.ref(column)} < ${period.end} and ${sql.ref(column)} <= ${period.hwm} ${notSuperseded}
      ${afterKeyset(column, 'time_out_id', after)}
    order by ${sql.ref(column)}, time_out_id limit ${limit}`.execute(db);
  return rows;
}

/** The regulator's own list rows of the tenant's environment registered in the period, by duration (counts only). */
export async function regulatorRegistrations(
  db: Executor,
  environment: Environment,
  period: Omit<Period, 'tenantId'>,
) {
  const { rows } = await sql<{ duration: string; registered: string }>`
    select duration, count(*)::text as registered from exclusions
    where origin = 'regulator' and environment = ${environment}
      and effective_from >= ${period.start} and effective_from < ${period.end} and effective_from <= ${period.hwm}
    group by duration order by duration`.execute(db);
  return rows;
}

/**
 * Every tenant: each gets every compiled period's reports, an empty one too (a tenant onboarded today may send a
 * year of history, and "nothing happened" is itself an answer a regulator reads).
 */
export function allTenants(db: Executor) {
  return db.selectFrom('tenants').select(['tenant_id', 'environment']).orderBy('tenant_id').execute();
}
