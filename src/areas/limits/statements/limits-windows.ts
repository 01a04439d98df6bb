import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import {
  columnArrays,
  precompiled,
  unnestArrays,
  type ColumnArrays,
  type ColumnType,
  type Param,
} from '../../../platform/db/precompiled.js';
import { WINDOW_TYPES, LONGEST_WINDOW_SECONDS, WINDOW_SECONDS, type WindowType } from '../limits.rules.js';
import { IN_FORCE_FIRST, inForce } from './shared-rules.js';

/**
 * The rolling-window arithmetic of the limits area, as SQL over CTE `input`, one row per user asked about (`ord`
 * its place): each statement is one round trip for any number of users and any history length. The window-state
 * read of the list (windowStates, here) and the pre-deposit check (limits-check.ts) share the CTEs.
 */

export interface WindowState {
  limit_id: string;
  limit_type: WindowType;
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

/** The columns of CTE `input` every window statement reads, with their PostgreSQL types. */
export const WINDOW_INPUT = {
  tenant_id: 'text',
  user_id: 'text',
  amount: 'bigint',
  at: 'timestamptz',
} as const;

export const windowInputRow = (input: WindowInput) => ({
  tenant_id: input.tenantId,
  user_id: input.userId,
  amount: input.amountCents,
  at: input.now,
});

/** CTE `input`: one row per user asked about, from one array per column, with `ord` and `at` in milliseconds. */
export function inputCte<Columns extends Record<string, ColumnType>>(
  columns: Columns,
  param: Param<ColumnArrays<Columns>>,
) {
  const names = sql.join(Object.keys(columns).map((name) => sql.ref(name)));
  return sql`input as (
      select *, (extract(epoch from at) * 1000)::bigint as at_ms
      from ${unnestArrays(columns, param)} with ordinality as i(${names}, ord)
    )`;
}

const windowSeconds = sql`case l.limit_type ${sql.join(
  WINDOW_TYPES.map((type) => sql`when ${type} then ${WINDOW_SECONDS[type]}::integer`),
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
export const liveHold = (tenantId: RawBuilder<string>, nowMs: RawBuilder<number>, element: string) => {
  const e = sql.raw(element);
  return sql`(${e}->>'expires_at')::bigint > ${nowMs}
    and (${e}->>'consumed_tx' is null or not exists (select 1 from deposits d
      where d.tenant_id = ${tenantId} and d.transaction_id = ${e}->>'consumed_tx'))`;
};

/** Whether a hold is kept in the row: not lapsed, and not consumed over a minute ago. */
export const keptHold = (nowMs: RawBuilder<number>, element: string) => {
  const e = sql.raw(element);
  return sql`(${e}->>'expires_at')::bigint > ${nowMs}
    and coalesce((${e}->>'consumed_at')::bigint > ${nowMs} - ${CONSUMED_HOLD_KEPT_MS}::bigint, true)`;
};

/**
 * CTEs `in_force`, `recent` and `spend`, per input row. In force is the rule of shared-rules.ts (inForce), one limit
 * of each type: the due increase over the active limit it replaces. Each user's deposits of the longest window are
 * one range scan of the deposits index, with the running sum the time-to-fit needs (a deposit at t leaves the window
 * at t + window); each window is then a join on `ord`, so the work grows with the rows, not their square.
 */
export const spendCtes = sql`
    in_force as (
      select distinct on (i.ord, l.limit_type) i.ord, l.limit_id, l.limit_type, l.amount_cents as limit_cents,
        l.currency, ${windowSeconds} as window_seconds
      from input i join deposit_limits l on l.tenant_id = i.tenant_id and l.user_id = i.user_id
      where l.limit_kind = 'deposit' and ${inForce(sql`i.at`)}
      order by i.ord, l.limit_type, ${IN_FORCE_FIRST}
    ),
    recent as (
      select i.ord, d.committed_at, d.amount_cents,
        sum(d.amount_cents) over (partition by i.ord order by d.committed_at, d.transaction_id
          rows unbounded preceding) as running
      from input i join deposits d on d.tenant_id = i.tenant_id and d.user_id = i.user_id
        and d.committed_at > i.at - make_interval(secs => ${LONGEST_WINDOW_SECONDS})
      where i.ord in (select ord from in_force)
    ),
    spend as (
      select a.ord, a.limit_id, a.limit_type, a.limit_cents, a.currency, a.window_seconds,
        coalesce(sum(r.amount_cents), 0)::bigint as spent_cents,
        min(r.committed_at) + make_interval(secs => a.window_seconds) as oldest_leaves_at,
        min(r.running - r.amount_cents) as before
      from in_force a join input i on i.ord = a.ord
      left join recent r on r.ord = a.ord and r.committed_at > i.at - make_interval(secs => a.window_seconds)
      group by a.ord, a.limit_id, a.limit_type, a.limit_cents, a.currency, a.window_seconds
    )`;

/**
 * CTE `held`: per input row, the live holds of `holds` (rows of tenant_id, user_id, holds: the table, or the rows
 * the check's upsert returns), less the input's own hold when `ownHold` names its column: their sum and when the
 * last of them lapses.
 */
export function heldCte(holds: RawBuilder<unknown>, ownHold?: RawBuilder<string>) {
  const notOwn = ownHold ? sql`e.value->>'id' <> ${ownHold} and` : sql``;
  return sql`
    held as (
      select i.ord, coalesce(sum((e.value->>'amount_cents')::bigint), 0)::bigint as cents,
        to_timestamp(max((e.value->>'expires_at')::bigint) / 1000.0) as lapses_at
      from input i
      left join ${holds} r on r.tenant_id = i.tenant_id and r.user_id = i.user_id
      left join lateral jsonb_array_elements(r.holds) e
        on ${notOwn} ${liveHold(sql`i.tenant_id`, sql`i.at_ms`, 'e.value')}
      group by i.ord
    )`;
}

/** The earliest time the window has room for `need` as its deposits leave it (null: never), from a join of `recent`. */
const fitsAsDepositsLeave = (need: RawBuilder<unknown>) => sql`(
    min(r.committed_at) filter (where s.spent_cents - (r.running - s.before) + ${need} <= s.limit_cents)
    + make_interval(secs => s.window_seconds))`;

/**
 * CTE `windows`: `spend` with the held amount (from CTE `held`), the input's amount and instant, and the time the
 * amount fits. Holds are counted as staying until the last of them lapses: an amount that fits only once the holds
 * are gone fits at the later of that lapse and the time enough deposits have left.
 */
export const windowsCte = sql`
    windows as (
      select s.ord, s.limit_id, s.limit_type, s.limit_cents, s.currency, s.window_seconds, s.spent_cents,
        h.cents as held_cents, s.oldest_leaves_at, i.amount, i.at,
        case
          when i.amount > s.limit_cents then null
          when s.spent_cents + h.cents + i.amount <= s.limit_cents then i.at
          else coalesce(
            ${fitsAsDepositsLeave(sql`h.cents + i.amount`)},
            greatest(h.lapses_at,
              case when s.spent_cents + i.amount <= s.limit_cents then i.at
              else ${fitsAsDepositsLeave(sql`i.amount`)} end)
          )
        end as fits_at
      from spend s join input i on i.ord = s.ord join held h on h.ord = s.ord
      left join recent r on r.ord = s.ord and r.committed_at > i.at - make_interval(secs => s.window_seconds)
      group by s.ord, s.limit_id, s.limit_type, s.limit_cents, s.currency, s.window_seconds, s.spent_cents,
        s.oldest_leaves_at, s.before, h.cents, h.lapses_at, i.amount, i.at
    )`;

export const toDate = (value: Date | string | null) => (value === null ? null : new Date(value));

const windowStatesStatement = precompiled(
  (_db, param: Param<ColumnArrays<typeof WINDOW_INPUT>>) => sql<WindowState>`
    with ${inputCte(WINDOW_INPUT, param)},
    ${spendCtes},
    ${heldCte(sql`limit_reservations`)},
    ${windowsCte}
    select limit_id, limit_type, limit_cents, currency, window_seconds, spent_cents, held_cents, oldest_leaves_at,
      fits_at
    from windows order by window_seconds`,
);

/** Every limit in force for the user with its window spend and the amounts held, shortest window first. */
export async function windowStates(db: Executor, input: WindowInput): Promise<WindowState[]> {
  const rows = await windowStatesStatement.execute(db, columnArrays(WINDOW_INPUT, [windowInputRow(input)]));
  return rows.map((row) => ({
    ...row,
    spent_cents: Number(row.spent_cents),
    held_cents: Number(row.held_cents),
    limit_cents: Number(row.limit_cents),
    oldest_leaves_at: toDate(row.oldest_leaves_at),
    fits_at: toDate(row.fits_at),
  }));
}
