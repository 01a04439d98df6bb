import { sql, type RawBuilder } from 'kysely';
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
  /** Held by allowed checks whose deposits are not committed yet (they count in every window). */
  held_cents: number;
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
 * A consumed hold stays in the row this long after its commit, counted while its deposit is invisible to the reading
 * statement's snapshot (a check that began before the commit but read the row after it); no statement's snapshot is
 * older, so the deposit is visible to every later reader and the hold can go.
 */
const CONSUMED_HOLD_KEPT_MS = 60_000;

/**
 * A hold (an element of limit_reservations.holds) counts while it has not lapsed and, once consumed by a commit, while
 * that deposit is not visible: from then on the deposit counts instead. Only a just-consumed hold costs a look-up.
 */
const liveHold = (tenantId: string, now: Date, element: string) => {
  const e = sql.raw(element);
  return sql`(${e}->>'expires_at')::bigint > ${now.getTime()}::bigint
    and (${e}->>'consumed_tx' is null or not exists (select 1 from deposits d
      where d.tenant_id = ${tenantId} and d.transaction_id = ${e}->>'consumed_tx'))`;
};

/** Whether a hold is kept in the row: not lapsed, and not consumed over a minute ago. */
const keptHold = (now: Date, element: string) => {
  const e = sql.raw(element);
  return sql`(${e}->>'expires_at')::bigint > ${now.getTime()}::bigint
    and coalesce((${e}->>'consumed_at')::bigint > ${now.getTime() - CONSUMED_HOLD_KEPT_MS}::bigint, true)`;
};

/**
 * CTEs `in_force`, `recent` and `spend`. In force is the active limit of each type, or an increase whose cool-off
 * has elapsed even if its activation job has not run yet. Each window is a range scan of the deposits index, with
 * the running sum the time-to-fit needs (a deposit at t leaves the window at t + window).
 */
function spendCtes({ tenantId, userId, now }: WindowInput) {
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
    spend as (
      select a.limit_id, a.limit_type, a.limit_cents, a.currency, a.window_seconds,
        coalesce(w.spent, 0)::bigint as spent_cents,
        w.oldest + make_interval(secs => a.window_seconds) as oldest_leaves_at,
        w.before
      from in_force a
      left join lateral (
        select sum(r.amount_cents) as spent, min(r.committed_at) as oldest,
          min(r.running - r.amount_cents) as before
        from recent r
        where r.committed_at > ${at} - make_interval(secs => a.window_seconds)
      ) w on true
    )`;
}

/**
 * CTE `windows`: `spend` with the held amount (from CTE `held`: cents, lapses_at) and the time the amount fits.
 * Holds are counted as staying until the last of them lapses: an amount that fits only once the holds are gone
 * fits at the later of that lapse and the time enough deposits have left.
 */
function windowsCte(amountCents: number, now: Date) {
  const at = sql`${now}::timestamptz`;
  const amount = sql`${amountCents}::bigint`;
  const fitsAsDepositsLeave = (need: RawBuilder<unknown>) => sql`(
    select r.committed_at + make_interval(secs => s.window_seconds)
    from recent r
    where r.committed_at > ${at} - make_interval(secs => s.window_seconds)
      and s.spent_cents - (r.running - s.before) + ${need} <= s.limit_cents
    order by r.committed_at
    limit 1
  )`;
  return sql`
    windows as (
      select s.limit_id, s.limit_type, s.limit_cents, s.currency, s.window_seconds, s.spent_cents,
        h.cents as held_cents, s.oldest_leaves_at,
        case
          when ${amount} > s.limit_cents then null
          when s.spent_cents + h.cents + ${amount} <= s.limit_cents then ${at}
          else coalesce(
            ${fitsAsDepositsLeave(sql`h.cents + ${amount}`)},
            greatest(h.lapses_at,
              case when s.spent_cents + ${amount} <= s.limit_cents then ${at} else ${fitsAsDepositsLeave(amount)} end)
          )
        end as fits_at
      from spend s cross join held h
    )`;
}

const toDate = (value: Date | string | null) => (value === null ? null : new Date(value));

/** Every limit in force for the user with its window spend and the amounts held, shortest window first. */
export async function windowStates(db: Executor, input: WindowInput): Promise<WindowState[]> {
  const result = await sql<WindowState>`
    with ${spendCtes(input)},
    held as (
      select coalesce(sum((e.value->>'amount_cents')::bigint), 0)::bigint as cents,
        to_timestamp(max((e.value->>'expires_at')::bigint) / 1000.0) as lapses_at
      from limit_reservations r cross join jsonb_array_elements(r.holds) e
      where r.tenant_id = ${input.tenantId} and r.user_id = ${input.userId}
        and ${liveHold(input.tenantId, input.now, 'e.value')}
    ),
    ${windowsCte(input.amountCents, input.now)}
    select * from windows order by window_seconds`.execute(db);
  return result.rows.map((row) => ({
    ...row,
    spent_cents: Number(row.spent_cents),
    held_cents: Number(row.held_cents),
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
    /** Deposits in the window plus the amounts held. */
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

export interface CheckInput extends WindowInput {
  currency: string;
  eventId: string;
  /** The id of the hold this check places if the amount fits, and when that hold lapses. */
  holdId: string;
  holdExpiresAt: Date;
}

/**
 * The pre-deposit gate in one statement (one round trip, any history length).
 *
 * 1. `spend`: each limit in force with its window's deposits, read from the statement's snapshot.
 * 2. `hold`: for a user with a limit in force (in the currency asked), an upsert of the user's one
 *    limit_reservations row. On PostgreSQL, ON CONFLICT DO UPDATE locks that row and works on its latest committed
 *    version, waiting for a concurrent check of the same user to finish: so concurrent checks queue here and each
 *    sees the holds of those before it (PGlite runs one statement at a time). The update drops lapsed holds (and
 *    consumed ones after a minute) and appends this check's hold when the amount plus the live holds fit under
 *    every limit. A hold consumed by a commit meanwhile counts while that deposit is invisible to this snapshot:
 *    the amount counts once either way.
 * 3. `held`: the live holds other than this check's; the windows, the binding limit (of the breached ones, the one
 *    that frees up last; one the amount never fits binds most) and, when the amount does not fit and the currency
 *    is the user's, the limit.breach_attempt outbox row, written by a data-modifying CTE (platform/outbox.ts builds
 *    it, so the dispatcher signs and sends it like any other event).
 * 4. `durability`: an allowed check commits asynchronously (synchronous_commit off for this statement's transaction
 *    only): the hold is visible to every other check at once, and only a database crash within the WAL writer's
 *    delay (600 ms by default) could lose it, when it would matter only to a deposit in flight across the crash.
 *    Waiting for the WAL flush was most of the hold's cost. A rejection, with its event, commits durably as before.
 */
export async function checkInOneStatement(db: Executor, input: CheckInput): Promise<CheckOutcome> {
  const at = sql`${input.now}::timestamptz`;
  const amount = sql`${input.amountCents}::bigint`;
  const newHold = sql`jsonb_build_array(jsonb_build_object('id', ${input.holdId}::text, 'amount_cents', ${amount},
    'expires_at', ${input.holdExpiresAt.getTime()}::bigint))`;
  const iso = (column: string) =>
    sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const result = await sql<CheckRow>`
    with ${spendCtes(input)},
    user_currency as (
      select coalesce(
        (select currency from deposit_limits where tenant_id = ${input.tenantId} and user_id = ${input.userId} limit 1),
        (select currency from deposits where tenant_id = ${input.tenantId} and user_id = ${input.userId} limit 1)
      ) as code
    ),
    headroom as (select min(limit_cents - spent_cents) as cents from spend),
    hold as (
      insert into limit_reservations as r (tenant_id, user_id, holds, held_until)
      select ${input.tenantId}, ${input.userId},
        case when ${amount} <= h.cents then ${newHold} else '[]'::jsonb end,
        ${input.holdExpiresAt}::timestamptz
      from headroom h cross join user_currency c
      where h.cents is not null and c.code = ${input.currency}
      on conflict (tenant_id, user_id) do update set
        holds = (
          select coalesce(jsonb_agg(e.value order by e.ordinality), '[]'::jsonb)
          from jsonb_array_elements(r.holds) with ordinality e
          where ${keptHold(input.now, 'e.value')}
        ) || case
          when ${amount} + (
            select coalesce(sum((e.value->>'amount_cents')::bigint), 0)
            from jsonb_array_elements(r.holds) e
            where ${liveHold(input.tenantId, input.now, 'e.value')}
          ) <= (select cents from headroom) then ${newHold}
          else '[]'::jsonb
        end,
        held_until = greatest(r.held_until, excluded.held_until)
      returning r.holds
    ),
    held as (
      select coalesce(sum((e.value->>'amount_cents')::bigint), 0)::bigint as cents,
        to_timestamp(max((e.value->>'expires_at')::bigint) / 1000.0) as lapses_at
      from hold cross join jsonb_array_elements(hold.holds) e
      where e.value->>'id' <> ${input.holdId} and ${liveHold(input.tenantId, input.now, 'e.value')}
    ),
    ${windowsCte(input.amountCents, input.now)},
    summary as (
      select string_agg(limit_type, ',' order by window_seconds) as active_limits,
        min(limit_cents - spent_cents - held_cents - ${amount}) as would_remain_cents,
        greatest(0, min(limit_cents - spent_cents - held_cents)) as max_allowed_now_cents
      from windows
    ),
    binding as (
      select limit_id, limit_type, limit_cents, spent_cents + held_cents as spent_cents, fits_at,
        coalesce(fits_at, oldest_leaves_at, ${at}) as next_reset_at
      from windows
      where spent_cents + held_cents + ${amount} > limit_cents
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
          'amount_cents', ${amount},
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
    ),
    durability as (
      select set_config('synchronous_commit',
        case when exists (select 1 from binding) then current_setting('synchronous_commit') else 'off' end,
        true) as setting
    )
    select c.code as user_currency, s.active_limits, s.would_remain_cents, s.max_allowed_now_cents,
      b.limit_id, b.limit_type, b.limit_cents, b.spent_cents, b.fits_at, b.next_reset_at
    from summary s cross join user_currency c cross join durability left join binding b on true`.execute(db);
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
