import { sql, type Insertable, type Transaction } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import type { LimitType } from './limits.rules.js';
import type { DepositLimit, DepositLimitsTable } from './limits.tables.js';

/** Plain queries on the limits tables, always scoped to a tenant; the business rules live in the services. */

/**
 * Serialises every limit change and deposit commit of one user (concurrent requests queue here, inside the
 * transaction): the one-currency rule and the one-active/one-pending rule are then checked without races.
 */
export async function lockUser(tx: Executor, tenantId: string, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`limits:${tenantId}:${userId}`}, 0))`.execute(tx);
}

export async function findOpenLimits(
  db: Executor,
  tenantId: string,
  userId: string,
  limitType: LimitType,
): Promise<{ active?: DepositLimit; pending?: DepositLimit }> {
  const rows = await db
    .selectFrom('deposit_limits')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
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

export function openLimitsOfUser(db: Executor, tenantId: string, userId: string): Promise<DepositLimit[]> {
  return db
    .selectFrom('deposit_limits')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('status', 'in', ['active', 'pending'])
    .orderBy('limit_type')
    .execute();
}

/** The one currency a user's limits and deposits are kept in, if any is recorded yet. */
export async function userCurrency(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<string | undefined> {
  const row = await sql<{ currency: string }>`
    (select currency from deposit_limits where tenant_id = ${tenantId} and user_id = ${userId} limit 1)
    union all
    (select currency from deposits where tenant_id = ${tenantId} and user_id = ${userId} limit 1)
    limit 1`.execute(db);
  return row.rows[0]?.currency;
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
