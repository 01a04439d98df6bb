import { sql } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import { outboxInsertSql } from '../../../platform/outbox.js';
import type { LimitType } from '../limits.rules.js';
import { keptHold, liveHold, spendCtes, toDate, windowsCte, type WindowInput } from './limits-windows.js';
import { userCurrency } from './shared-rules.js';

/** The pre-deposit check of the limits area: one statement, one round trip, any history length. */

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

const iso = (column: string) =>
  sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The limit.breach_attempt event of a rejected check, as the outbox row the check's statement writes: its data from
 * the CTEs `binding` (b), `summary` (s) and `user_currency` (c), only when the currency asked is the user's.
 */
export function breachAttemptEventSql(input: CheckInput) {
  const amount = sql`${input.amountCents}::bigint`;
  return outboxInsertSql({
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
  });
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
  const result = await sql<CheckRow>`
    with ${spendCtes(input)},
    user_currency as (
      select ${userCurrency(input.tenantId, input.userId)} as code
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
      ${breachAttemptEventSql(input)}
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
