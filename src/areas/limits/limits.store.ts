import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { LONGEST_WINDOW_SECONDS, type LimitType } from './limits.rules.js';
import type { DepositLimit } from './limits.tables.js';

/** Serialises changes to one user's limit of one type (concurrent requests queue here, inside the transaction). */
export async function lockLimit(
  tx: Executor,
  tenantId: string,
  userId: string,
  limitType: LimitType,
): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${tenantId}/${userId}/${limitType}`}, 0))`.execute(
    tx,
  );
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

export interface WindowState {
  limit_id: string;
  limit_type: LimitType;
  limit_cents: number;
  currency: string;
  window_seconds: number;
  /** Deposits committed within the rolling window ending now. */
  spent_cents: number;
  /** When the oldest deposit in the window leaves it (null: the window is empty). */
  oldest_leaves_at: Date | null;
  /** The earliest time `amount` fits under this limit as deposits leave the window (null: it never fits). */
  fits_at: Date | null;
}

/**
 * Every limit in force for the user with its window spend, in one statement: each window is a range scan of
 * the deposits index, and the time the requested amount would fit comes from a running sum over that range.
 */
export async function windowStates(
  db: Executor,
  input: { tenantId: string; userId: string; amountCents: number; now: Date },
): Promise<WindowState[]> {
  const { tenantId, userId, amountCents, now } = input;
  const result = await sql<WindowState>`
    with active as (
      select limit_id, limit_type, amount_cents as limit_cents, currency,
        case limit_type when 'limit_daily' then 86400 when 'limit_weekly' then 604800 else 2592000 end as window_seconds
      from deposit_limits
      where tenant_id = ${tenantId} and user_id = ${userId} and status = 'active'
    ),
    recent as (
      select committed_at, amount_cents,
        sum(amount_cents) over (order by committed_at, transaction_id rows unbounded preceding) as running
      from deposits
      where tenant_id = ${tenantId} and user_id = ${userId}
        and committed_at > ${now}::timestamptz - make_interval(secs => ${LONGEST_WINDOW_SECONDS})
    )
    select a.limit_id, a.limit_type, a.limit_cents, a.currency, a.window_seconds,
      coalesce(w.spent, 0)::bigint as spent_cents,
      w.oldest + make_interval(secs => a.window_seconds) as oldest_leaves_at,
      case
        when ${amountCents}::bigint > a.limit_cents then null
        when coalesce(w.spent, 0) + ${amountCents}::bigint <= a.limit_cents then ${now}::timestamptz
        else (
          select r.committed_at + make_interval(secs => a.window_seconds)
          from recent r
          where r.committed_at > ${now}::timestamptz - make_interval(secs => a.window_seconds)
            and w.spent - (r.running - w.before) + ${amountCents}::bigint <= a.limit_cents
          order by r.committed_at
          limit 1
        )
      end as fits_at
    from active a
    left join lateral (
      select sum(r.amount_cents) as spent, min(r.committed_at) as oldest, min(r.running - r.amount_cents) as before
      from recent r
      where r.committed_at > ${now}::timestamptz - make_interval(secs => a.window_seconds)
    ) w on true
    order by a.window_seconds`.execute(db);
  return result.rows.map((row) => ({
    ...row,
    spent_cents: Number(row.spent_cents),
    limit_cents: Number(row.limit_cents),
    oldest_leaves_at: row.oldest_leaves_at ? new Date(row.oldest_leaves_at) : null,
    fits_at: row.fits_at ? new Date(row.fits_at) : null,
  }));
}
