import { sql } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import {
  columnArrays,
  precompiled,
  type ColumnArrays,
  type Param,
} from '../../../platform/db/precompiled.js';
import { isoTimestampSql, outboxInsertSql } from '../../../platform/outbox.js';
import { markerActivitySql } from '../../safer-gambling/index.js';
import type { WindowType } from '../limits.rules.js';
import {
  heldCte,
  inputCte,
  keptHold,
  liveHold,
  spendCtes,
  toDate,
  windowInputRow,
  windowsCte,
  WINDOW_INPUT,
  type WindowInput,
} from './limits-windows.js';
import { userCurrency } from './shared-rules.js';

/** The pre-deposit check of the limits area: one statement, one round trip, for any number of checks and history. */

export interface CheckOutcome {
  /** The one currency the user's limits and deposits are kept in; null before the first of either. */
  user_currency: string | null;
  active_limits: WindowType[];
  /** null when the user has no limit in force. */
  would_remain_cents: number | null;
  max_allowed_now_cents: number;
  /** The binding limit when the amount does not fit, else null. */
  breach: {
    limit_id: string;
    limit_type: WindowType;
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
  limit_type: WindowType | null;
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

/** What each check of a group sends, one array per column. */
const CHECK_INPUT = {
  ...WINDOW_INPUT,
  currency: 'text',
  event_id: 'text',
  hold_id: 'text',
  hold_expires_at: 'timestamptz',
} as const;

/**
 * The limit.breach_attempt event of each rejected check, as the outbox rows the statement writes: its data from the
 * CTEs `binding` (b), `summary` (s), `input` (i) and `user_currency` (c), only when the currency asked is the user's.
 */
export const breachAttemptEventSql = outboxInsertSql({
  event: 'limit.breach_attempt',
  tenantId: sql`i.tenant_id`,
  eventId: sql`i.event_id`,
  at: sql`i.at`,
  data: sql`json_build_object(
          'user_id', i.user_id,
          'amount_cents', i.amount,
          'currency', i.currency,
          'limit_id', b.limit_id,
          'breached_limit_type', b.limit_type,
          'limit_amount_cents', b.limit_cents,
          'already_spent_cents', b.spent_cents,
          'max_allowed_now_cents', s.max_allowed_now_cents,
          'next_reset_at', ${isoTimestampSql(sql`b.next_reset_at`)}
        )`,
  source: sql`from binding b join summary s on s.ord = b.ord join input i on i.ord = b.ord
      join user_currency c on c.ord = b.ord
    where c.code = i.currency`,
});

/**
 * With each limit.breach_attempt, the safer-gambling evaluation of the player's limit behaviour (SG-005) as stored
 * work due at once: scheduled here, evaluated by the scheduler, never inside this statement. Its job id is the
 * event's, with the job prefix.
 */
const breachEvaluationSql = markerActivitySql({
  jobId: sql`'job' || substr(i.event_id, 4)`,
  tenantId: sql`i.tenant_id`,
  userId: sql`i.user_id`,
  source: sql`b.limit_id`,
  at: sql`i.at`,
  from: sql`from binding b join input i on i.ord = b.ord join user_currency c on c.ord = b.ord
    where c.code = i.currency`,
});

/** The asking check of the limit_reservations row an upsert is on (one per user in a statement). */
const askingCheck = sql`asked a where a.tenant_id = excluded.tenant_id and a.user_id = excluded.user_id`;

/**
 * The pre-deposit gate for a group of checks in one statement (one round trip, any history length). Each user is
 * in a group at most once (the group commit's key): a multi-row upsert touches each row once.
 *
 * 1. `spend`: each limit in force with its window's deposits, read from the statement's snapshot.
 * 2. `asked`, `hold`: for a user with a limit in force (in the currency asked), an upsert of the user's one
 *    limit_reservations row. On PostgreSQL, ON CONFLICT DO UPDATE locks that row and works on its latest committed
 *    version, waiting for a concurrent statement holding the same user to finish: so concurrent checks queue here
 *    and each sees the holds of those before it (PGlite runs one statement at a time). Rows are upserted in user
 *    order, so two groups in flight lock in the same order. The update drops lapsed holds (and consumed ones after a
 *    minute) and appends this check's hold when the amount plus the live holds fit under every limit. A hold
 *    consumed by a commit meanwhile counts while that deposit is invisible to this snapshot: the amount counts once
 *    either way.
 * 3. `held`: the live holds other than the check's own; the windows, the binding limit (of the breached ones, the
 *    one that frees up last; one the amount never fits binds most) and, when the amount does not fit and the
 *    currency is the user's, the limit.breach_attempt outbox row, written by a data-modifying CTE (platform/outbox.ts
 *    builds it, so the dispatcher signs and sends it like any other event).
 * 4. The group commits durably, like every acknowledged write: its checks share one commit and one WAL flush.
 */
const checkStatement = precompiled(
  (_db, param: Param<ColumnArrays<typeof CHECK_INPUT>>) => sql<CheckRow>`
    with ${inputCte(CHECK_INPUT, param)},
    ${spendCtes},
    user_currency as (
      select i.ord, ${userCurrency(sql`i.tenant_id`, sql`i.user_id`)} as code from input i
    ),
    asked as (
      select i.ord, i.tenant_id, i.user_id, i.amount, i.at_ms, i.hold_expires_at, h.cents as headroom_cents,
        jsonb_build_array(jsonb_build_object('id', i.hold_id, 'amount_cents', i.amount,
          'expires_at', (extract(epoch from i.hold_expires_at) * 1000)::bigint)) as new_hold
      from input i
      join (select ord, min(limit_cents - spent_cents) as cents from spend group by ord) h on h.ord = i.ord
      join user_currency c on c.ord = i.ord
      where c.code = i.currency
    ),
    hold as (
      insert into limit_reservations as r (tenant_id, user_id, holds, held_until)
      select tenant_id, user_id, case when amount <= headroom_cents then new_hold else '[]'::jsonb end,
        hold_expires_at
      from asked
      order by tenant_id, user_id
      on conflict (tenant_id, user_id) do update set
        holds = (
          select coalesce(jsonb_agg(e.value order by e.ordinality), '[]'::jsonb)
          from jsonb_array_elements(r.holds) with ordinality e, ${askingCheck}
            and ${keptHold(sql`a.at_ms`, 'e.value')}
        ) || (
          select case
            when a.amount + (
              select coalesce(sum((e.value->>'amount_cents')::bigint), 0)
              from jsonb_array_elements(r.holds) e
              where ${liveHold(sql`r.tenant_id`, sql`a.at_ms`, 'e.value')}
            ) <= a.headroom_cents then a.new_hold
            else '[]'::jsonb
          end
          from ${askingCheck}
        ),
        held_until = greatest(r.held_until, excluded.held_until)
      returning r.tenant_id, r.user_id, r.holds
    ),
    ${heldCte(sql`hold`, sql`i.hold_id`)},
    ${windowsCte},
    summary as (
      select ord, string_agg(limit_type, ',' order by window_seconds) as active_limits,
        min(limit_cents - spent_cents - held_cents - amount) as would_remain_cents,
        greatest(0, min(limit_cents - spent_cents - held_cents)) as max_allowed_now_cents
      from windows
      group by ord
    ),
    binding as (
      select distinct on (ord) ord, limit_id, limit_type, limit_cents, spent_cents + held_cents as spent_cents,
        fits_at, coalesce(fits_at, oldest_leaves_at, at) as next_reset_at
      from windows
      where spent_cents + held_cents + amount > limit_cents
      order by ord, fits_at desc nulls first, window_seconds
    ),
    breach_event as (
      ${breachAttemptEventSql}
    ),
    breach_evaluation as (
      ${breachEvaluationSql}
    )
    select c.code as user_currency, s.active_limits, s.would_remain_cents,
      coalesce(s.max_allowed_now_cents, 0) as max_allowed_now_cents,
      b.limit_id, b.limit_type, b.limit_cents, b.spent_cents, b.fits_at, b.next_reset_at
    from input i join user_currency c on c.ord = i.ord
    left join summary s on s.ord = i.ord
    left join binding b on b.ord = i.ord
    order by i.ord`,
);

const checkRow = (input: CheckInput) => ({
  ...windowInputRow(input),
  currency: input.currency,
  event_id: input.eventId,
  hold_id: input.holdId,
  hold_expires_at: input.holdExpiresAt,
});

const outcomeOf = (row: CheckRow): CheckOutcome => ({
  user_currency: row.user_currency,
  active_limits: row.active_limits ? (row.active_limits.split(',') as WindowType[]) : [],
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
});

/** Each check's outcome, in order. Each user at most once among `checks`. */
export async function checkInOneStatement(db: Executor, checks: CheckInput[]): Promise<CheckOutcome[]> {
  const rows = await checkStatement.execute(db, columnArrays(CHECK_INPUT, checks.map(checkRow)));
  return rows.map(outcomeOf);
}
