import { lockSubject, lockSubjects } from '../../platform/db/subject-lock.js';
import { sql, type Insertable, type Transaction } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import type { LimitKind, LimitType } from './limits.rules.js';
import { inForce, userCurrency as userCurrencySql } from './statements/shared-rules.js';
import type {
  DepositLimit,
  DepositLimitsTable,
  LimitRelease,
  LimitReleasesTable,
  LimitStatus,
} from './limits.tables.js';

/** Plain queries on the limits tables, always scoped to a tenant; the business rules live in the services. */

/**
 * Serialises every limit change and deposit commit of one user (concurrent requests queue here, inside the
 * transaction): the one-currency rule and the one-active/one-pending rule are then checked without races.
 */
export async function lockUser(tx: Executor, tenantId: string, userId: string): Promise<void> {
  await lockSubject(tx, 'limits', tenantId, userId);
}

/** lockUser for a batch's users, in one statement. */
export async function lockUsers(
  tx: Executor,
  users: ReadonlyArray<{ tenantId: string; userId: string }>,
): Promise<void> {
  await lockSubjects(tx, 'limits', users);
}

/** A limit with whether it is in force at the time asked (statements/shared-rules.ts: inForce, the check's own rule). */
export type OpenLimit = DepositLimit & { in_force: boolean };

/** The active limit and the pending increase of one kind and type, each with whether it is in force at `now`. */
export async function findOpenLimits(
  db: Executor,
  tenantId: string,
  userId: string,
  limitKind: LimitKind,
  limitType: LimitType,
  now: Date,
): Promise<{ active?: OpenLimit; pending?: OpenLimit }> {
  const rows = await db
    .selectFrom('deposit_limits')
    .selectAll()
    .select(inForce(sql`${now}::timestamptz`).as('in_force'))
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('limit_kind', '=', limitKind)
    .where('limit_type', '=', limitType)
    .where('status', 'in', ['active', 'pending'])
    .execute();
  return {
    active: rows.find((r) => r.status === 'active'),
    pending: rows.find((r) => r.status === 'pending'),
  };
}

export function findLimit(
  db: Executor,
  tenantId: string,
  limitId: string,
): Promise<DepositLimit | undefined> {
  return db
    .selectFrom('deposit_limits')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('limit_id', '=', limitId)
    .executeTakeFirst();
}

/** A user's limits in force or pending, of one kind or of every kind, each with whether it is in force at `now`. */
export function openLimitsOfUser(
  db: Executor,
  tenantId: string,
  userId: string,
  now: Date,
  limitKind?: LimitKind,
): Promise<OpenLimit[]> {
  return db
    .selectFrom('deposit_limits')
    .selectAll()
    .select(inForce(sql`${now}::timestamptz`).as('in_force'))
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('status', 'in', ['active', 'pending'])
    .$if(limitKind !== undefined, (q) => q.where('limit_kind', '=', limitKind!))
    .orderBy('limit_kind')
    .orderBy('limit_type')
    .execute();
}

/** The one currency a user's limits and deposits are kept in, if any is recorded yet (the check's own rule). */
export async function userCurrency(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<string | undefined> {
  const row = await sql<{
    currency: string | null;
  }>`select ${userCurrencySql(tenantId, userId)} as currency`.execute(db);
  return row.rows[0]?.currency ?? undefined;
}

export function insertLimit(
  tx: Transaction<DB>,
  values: Insertable<DepositLimitsTable>,
): Promise<DepositLimit> {
  return tx.insertInto('deposit_limits').values(values).returningAll().executeTakeFirstOrThrow();
}

export function setStatus(
  tx: Transaction<DB>,
  tenantId: string,
  limitId: string,
  status: 'active' | 'superseded' | 'cancelled',
  now: Date,
): Promise<DepositLimit> {
  return tx
    .updateTable('deposit_limits')
    .set(status === 'active' ? { status } : { status, ended_at: now })
    .where('tenant_id', '=', tenantId)
    .where('limit_id', '=', limitId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Locks the activation jobs of the user's pending increases before the user lock is taken. The scheduler holds a
 * job's row while its handler takes the user lock, so job rows first, then the user, is the one lock order.
 */
export async function lockActivationJobs(
  tx: Transaction<DB>,
  kind: string,
  tenantId: string,
  userId: string,
): Promise<void> {
  await tx
    .selectFrom('scheduled_jobs')
    .select('job_id')
    .where('kind', '=', kind)
    .where('subject_id', 'in', (eb) =>
      eb
        .selectFrom('deposit_limits')
        .select('limit_id')
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .where('status', '=', 'pending'),
    )
    .forUpdate()
    .execute();
}

/**
 * The hold a commit or release of `amountCents` takes: the user's oldest live hold of exactly that amount (the
 * check carries no transaction reference, so amount and age are what match). The caller holds the user lock.
 */
export async function oldestLiveHold(
  tx: Transaction<DB>,
  tenantId: string,
  userId: string,
  amountCents: number,
  now: Date,
): Promise<string | undefined> {
  const result = await sql<{ id: string }>`
    select e.value->>'id' as id
    from limit_reservations r cross join jsonb_array_elements(r.holds) with ordinality e
    where r.tenant_id = ${tenantId} and r.user_id = ${userId}
      and (e.value->>'amount_cents')::bigint = ${amountCents}::bigint
      and (e.value->>'expires_at')::bigint > ${now.getTime()}::bigint
      and e.value->>'consumed_tx' is null
    order by e.ordinality
    limit 1`.execute(tx);
  return result.rows[0]?.id;
}

/**
 * Marks a hold consumed by the deposit `transactionId`, in the commit's transaction: a check counts it from then on
 * only while that deposit is invisible to its snapshot. The row lock orders this with concurrent checks.
 */
export async function consumeHold(
  tx: Transaction<DB>,
  tenantId: string,
  userId: string,
  holdId: string,
  transactionId: string,
  now: Date,
): Promise<void> {
  const consumed = sql`jsonb_build_object('consumed_tx', ${transactionId}::text, 'consumed_at', ${now.getTime()}::bigint)`;
  await sql`
    update limit_reservations r set holds = (
      select jsonb_agg(case when e.value->>'id' = ${holdId} then e.value || ${consumed} else e.value end
        order by e.ordinality)
      from jsonb_array_elements(r.holds) with ordinality e
    )
    where r.tenant_id = ${tenantId} and r.user_id = ${userId}`.execute(tx);
}

/** Takes one hold out of the user's row (a release): the row lock orders this with concurrent checks. */
export async function dropHold(
  tx: Transaction<DB>,
  tenantId: string,
  userId: string,
  holdId: string,
): Promise<void> {
  await sql`
    update limit_reservations r set holds = (
      select coalesce(jsonb_agg(e.value order by e.ordinality), '[]'::jsonb)
      from jsonb_array_elements(r.holds) with ordinality e
      where e.value->>'id' <> ${holdId}
    )
    where r.tenant_id = ${tenantId} and r.user_id = ${userId}`.execute(tx);
}

export function findRelease(
  db: Executor,
  tenantId: string,
  transactionId: string,
): Promise<LimitRelease | undefined> {
  return db
    .selectFrom('limit_releases')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
}

export function insertRelease(
  tx: Transaction<DB>,
  values: Insertable<LimitReleasesTable>,
): Promise<LimitRelease> {
  return tx.insertInto('limit_releases').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Whether a deposit was committed under this transaction_id. */
export async function depositCommitted(
  db: Executor,
  tenantId: string,
  transactionId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('deposits')
    .select('transaction_id')
    .where('tenant_id', '=', tenantId)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A user's limits of every kind and status, newest first, `max` at most, each with how many there are in all
 * (`total`) and its status at `at`: an increase whose cool-off has elapsed is active (inForce), and the limit it
 * replaces superseded, whether or not its job has run.
 */
export function limitsOfUser(db: Executor, tenantId: string, userId: string, at: Date, max: number) {
  const now = sql`${at}::timestamptz`;
  return db
    .selectFrom('deposit_limits as l')
    .select([
      'l.limit_id',
      'l.limit_kind',
      'l.limit_type',
      'l.amount_cents',
      'l.currency',
      'l.current_limit_cents',
      'l.is_increase',
      'l.cooloff_seconds',
      'l.created_at',
      'l.effective_from',
      'l.ended_at',
      // inForce's unqualified columns name the row of the innermost FROM: l's here, p's in the subquery.
      sql<LimitStatus>`case
        when l.status = 'pending' and ${inForce(now)} then 'active'
        when l.status = 'active' and exists (
          select 1 from deposit_limits p
          where p.tenant_id = l.tenant_id and p.user_id = l.user_id and p.limit_kind = l.limit_kind
            and p.limit_type = l.limit_type and p.status = 'pending' and ${inForce(now)}
        ) then 'superseded'
        else l.status end`.as('status'),
      sql<string>`count(*) over ()`.as('total'),
    ])
    .where('l.tenant_id', '=', tenantId)
    .where('l.user_id', '=', userId)
    .orderBy('l.created_at', 'desc')
    .orderBy('l.limit_id', 'desc')
    .limit(max)
    .execute();
}
