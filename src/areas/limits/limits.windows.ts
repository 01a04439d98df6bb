import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { outboxInsertSql } from '../../platform/outbox.js';
import { LIMIT_TYPES, LONGEST_WINDOW_SECONDS, WINDOW_SECONDS, type LimitType } from './limits.rules.js';

/** The rolling-window arithmetic of the limits area, as SQL: each statement is one round trip, any history length. */

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

interface WindowInput {
  tenantId: string;
  userId: string;
  amountCents: number;
  now: Date;
}

const windowSeconds = sql`case limit_type ${sql.join(
  LIMIT_TYPES.map((type) => sql`when ${type} then ${WINDOW_SECONDS[type]}::integer`),
  sql` `,
)} end`;

/**
 * CTEs `in_force`, `recent` and `windows`. In force is the active limit of each type, or an increase whose cool-off
 * has elapsed even if its activation job has not run yet. Each window is a range scan of the deposits index; the
 * time the amount fits comes from a running sum over that range (a deposit at t leaves the window at t + window).
 */
function windowCtes({ tenantId, userId, amountCents, now }: WindowInput) {
  const amount = sql`${amountCents}::bigint`;
  const at = sql`${now}::timestamptz`;
  return sql`
    in_force as (
      select distinct on (limit_type) limit_id, limit_type, amount_cents as limit_cents, currency,
        ${windowSeconds} as window_seconds
      from deposit_limits
      where tenant_id = ${tenantId} and user_id = ${userId}
        and (status = 'active' or (status = 'pending' and effective_from <= ${at}))
      order by limit_type, status = 'pending' desc
    ),
    recent as (
      select committed_at, amount_cents,
        sum(amount_cents) over (order by committed_at, transaction_id rows unbounded preceding) as running
      from deposits
      where tenant_id = ${tenantId} and user_id = ${userId}
        and committed_at > ${at} - make_interval(secs => ${LONGEST_WINDOW_SECONDS})
    ),
    windows as (
      select a.limit_id, a.limit_type, a.limit_cents, a.currency, a.window_seconds,
        coalesce(w.spent, 0)::bigint as spent_cents,
        w.oldest + make_interval(secs => a.window_seconds) as oldest_leaves_at,
        case
          when ${amount} > a.limit_cents then null
          when coalesce(w.spent, 0) + ${amount} <= a.limit_cents then ${at}
          else (
            select r.committed_at + make_interval(secs => a.window_seconds)
            from recent r
            where r.committed_at > ${at} - make_interval(secs => a.window_seconds)
              and w.spent - (r.running - w.before) + ${amount} <= a.limit_cents
            order by r.committed_at
            limit 1
          )
        end as fits_at
      from in_force a
      left join lateral (
        select sum(r.amount_cents) as spent, min(r.committed_at) as oldest,
          min(r.running - r.amount_cents) as before
        from recent r
        where r.committed_at > ${at} - make_interval(secs => a.window_seconds)
      ) w on true
    )`;
}

const toDate = (value: Date | string | null) => (value === null ? null : new Date(value));

/** Every limit in force for the user with its window spend, shortest window first. */
export async function windowStates(db: Executor, input: WindowInput): Promise<WindowState[]> {
  const result = await sql<WindowState>`
    with ${windowCtes(input)}
    select * from windows order by window_seconds`.execute(db);
  return result.rows.map((row) => ({
    ...row,
    spent_cents: Number(row.spent_cents),
    limit_cents: Number(row.limit_cents),
    oldest_leaves_at: toDate(row.oldest_leaves_at),
    fits_at: toDate(row.fits_at),
  }));
}

export interface CheckOutcome {
  /** The one currency the user's limits and deposits are kept in; null before the first of either. */
  user_currency: string | null;
  active_limits: LimitType[];
  /** null when the user has no limit in force. */
  would_remain_cents: number | null;
  max_allowed_now_cents: number;
  /** The binding limit when the amount does not fit, else null. */
  breach: {
    limit_id: string;
    limit_type: LimitType;
    limit_cents: number;
    spent_cents: number;
    /** null: the amount exceeds the limit itself and never fits. */
    fits_at: Date | null;
    next_reset_at: Date;
  } | null;
}

interface CheckRow {
  user_currency: string | null;
  active_limits: string | null;
  would_remain_cents: number | null;
  max_allowed_now_cents: number;
  limit_id: string | null;
  limit_type: LimitType | null;
  limit_cents: number | null;
  spent_cents: number | null;
  fits_at: Date | string | null;
  next_reset_at: Date | string | null;
}

/**
 * The pre-deposit gate in one statement (one round trip, any history length): the windows, the binding limit (of
 * the breached ones, the one that frees up last; one the amount never fits binds most) and, when the amount does
 * not fit and the currency is the user's, the limit.breach_attempt outbox row, written by a data-modifying CTE
 * (platform/outbox.ts builds it, so the dispatcher signs and sends it like any other event).
 */
export async function checkInOneStatement(
  db: Executor,
  input: WindowInput & { currency: string; eventId: string },
): Promise<CheckOutcome> {
  const at = sql`${input.now}::timestamptz`;
  const iso = (column: string) =>
    sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const result = await sql<CheckRow>`
    with ${windowCtes(input)},
    user_currency as (
      select coalesce(
        (select currency from deposit_limits where tenant_id = ${input.tenantId} and user_id = ${input.userId} limit 1),
        (select currency from deposits where tenant_id = ${input.tenantId} and user_id = ${input.userId} limit 1)
      ) as code
    ),
    summary as (
      select string_agg(limit_type, ',' order by window_seconds) as active_limits,
        min(limit_cents - spent_cents - ${input.amountCents}::bigint) as would_remain_cents,
        greatest(0, min(limit_cents - spent_cents)) as max_allowed_now_cents
      from windows
    ),
    binding as (
      select limit_id, limit_type, limit_cents, spent_cents, fits_at,
        coalesce(fits_at, oldest_leaves_at, ${at}) as next_reset_at
      from windows
      where spent_cents + ${input.amountCents}::bigint > limit_cents
      order by fits_at desc nulls first, window_seconds
      limit 1
    ),
    breach_event as (
      ${outboxInsertSql({
        tenantId: input.tenantId,
        event: 'limit.breach_attempt',
        eventId: input.eventId,
        at: input.now,
        data: sql`json_build_object(
          'user_id', ${input.userId}::text,
          'amount_cents', ${input.amountCents}::bigint,
          'currency', ${input.currency}::text,
          'limit_id', b.limit_id,
          'breached_limit_type', b.limit_type,
          'limit_amount_cents', b.limit_cents,
          'already_spent_cents', b.spent_cents,
          'max_allowed_now_cents', s.max_allowed_now_cents,
          'next_reset_at', ${iso('b.next_reset_at')}
        )`,
        source: sql`from binding b, summary s, user_currency c where c.code = ${input.currency}`,
      })}
    )
    select c.code as user_currency, s.active_limits, s.would_remain_cents, s.max_allowed_now_cents,
      b.limit_id, b.limit_type, b.limit_cents, b.spent_cents, b.fits_at, b.next_reset_at
    from summary s cross join user_currency c left join binding b on true`.execute(db);
  const row = result.rows[0]!;
  return {
    user_currency: row.user_currency,
    active_limits: row.active_limits ? (row.active_limits.split(',') as LimitType[]) : [],
    would_remain_cents: row.would_remain_cents === null ? null : Number(row.would_remain_cents),
    max_allowed_now_cents: Number(row.max_allowed_now_cents),
    breach:
      row.limit_type === null
        ? null
        : {
            limit_id: row.limit_id!,
            limit_type: row.limit_type,
            limit_cents: Number(row.limit_cents),
            spent_cents: Number(row.spent_cents),
            fits_at: toDate(row.fits_at),
            next_reset_at: toDate(row.next_reset_at)!,
          },
  };
}
