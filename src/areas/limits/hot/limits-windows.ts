import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import { LIMIT_TYPES, LONGEST_WINDOW_SECONDS, WINDOW_SECONDS, type LimitType } from '../limits.rules.js';
import { IN_FORCE_FIRST, inForce } from './shared-rules.js';

/**
 * The rolling-window arithmetic of the limits area, as SQL: each statement is one round trip, any history length.
 * The window-state read of the list (windowStates, here) and the pre-deposit check (limits-check.ts) share the CTEs.
 */

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

export interface WindowInput {
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
export const liveHold = (tenantId: string, now: Date, element: string) => {
  const e = sql.raw(element);
  return sql`(${e}->>'expires_at')::bigint > ${now.getTime()}::bigint
    and (${e}->>'consumed_tx' is null or not exists (select 1 from deposits d
      where d.tenant_id = ${tenantId} and d.transaction_id = ${e}->>'consumed_tx'))`;
};

/** Whether a hold is kept in the row: not lapsed, and not consumed over a minute ago. */
export const keptHold = (now: Date, element: string) => {
  const e = sql.raw(element);
  return sql`(${e}->>'expires_at')::bigint > ${now.getTime()}::bigint
    and coalesce((${e}->>'consumed_at')::bigint > ${now.getTime() - CONSUMED_HOLD_KEPT_MS}::bigint, true)`;
};

/**
 * CTEs `in_force`, `recent` and `spend`. In force is the rule of shared-rules.ts (inForce), one limit of each type:
 * the due increase over the active limit it replaces. Each window is a range scan of the deposits index, with
 * the running sum the time-to-fit needs (a deposit at t leaves the window at t + window).
 */
export function spendCtes({ tenantId, userId, now }: WindowInput) {
  const at = sql`${now}::timestamptz`;
  return sql`
    in_force as (
      select distinct on (limit_type) limit_id, limit_type, amount_cents as limit_cents, currency,
        ${windowSeconds} as window_seconds
      from deposit_limits
      where tenant_id = ${tenantId} and user_id = ${userId}
        and ${inForce(at)}
      order by limit_type, ${IN_FORCE_FIRST}
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
export function windowsCte(amountCents: number, now: Date) {
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

export const toDate = (value: Date | string | null) => (value === null ? null : new Date(value));

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
