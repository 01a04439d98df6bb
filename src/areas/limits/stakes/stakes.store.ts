import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import type { DB } from '../../../platform/db/schema.js';
import { LONGEST_WINDOW_SECONDS, WINDOW_SECONDS, WINDOW_TYPES, type WindowType } from '../limits.rules.js';
import { IN_FORCE_FIRST, inForce, userCurrency } from '../statements/shared-rules.js';
import type {
  AcknowledgedStake,
  CountedEvent,
  HeldStake,
  StakeLimit,
  WindowTotals,
} from './stake-decision.js';

/**
 * The stakes and payouts a player's loss and wager limits count: a read model of the AML events the operator
 * already sends (wager: the stake; settlement: the payout), stored when POST /v1/aml/event acknowledges them. A
 * failed event (metadata.status) counts for nothing. An event in another currency than the limits' counts at its
 * USD value converted back at the reference rate in force (docs/player-protection.md).
 */
/** A value bound as a parameter, or a column of the statement (a batch's input row). */
type SqlValue<T> = T | RawBuilder<T>;

/** Which of the player's events (aml_events e) count since `since`: stakes and payouts, failed ones excluded. */
const countedSince = (tenantId: SqlValue<string>, userId: SqlValue<string>, since: SqlValue<Date>) =>
  sql`e.tenant_id = ${tenantId} and e.user_id = ${userId} and e.occurred_at > ${since}::timestamptz
      and e.event_type in ('wager', 'settlement') and e.status <> 'failed'`;

const counted = (
  tenantId: SqlValue<string>,
  userId: SqlValue<string>,
  currency: SqlValue<string>,
  scale: SqlValue<number>,
  since: SqlValue<Date>,
) => sql`
    select e.event_type, e.occurred_at,
      case when e.currency = ${currency} then e.amount_cents
        else coalesce(floor(e.usd_cents::numeric * ${scale}::numeric
          / (100 * (select usd_per_unit from fx_rates where fx_rates.currency = ${currency}))), 0)::bigint
      end as cents
    from aml_events e
    where ${countedSince(tenantId, userId, since)}`;

/** Stakes and payouts in a window, with its oldest counted stake and event (when each leaves the window). */
export type WindowUse = WindowTotals & { oldestStakeAt: Date | null; oldestAt: Date | null };

/** The counted events since `since`, oldest first (a rejected stake's time-to-fit). */
export async function countedEvents(
  db: Executor,
  tenantId: string,
  userId: string,
  currency: string,
  scale: number,
  since: Date,
): Promise<CountedEvent[]> {
  const result = await sql<{ event_type: 'wager' | 'settlement'; occurred_at: Date; cents: string }>`
    ${counted(tenantId, userId, currency, scale, since)} order by e.occurred_at`.execute(db);
  return result.rows.map((r) => ({ type: r.event_type, at: r.occurred_at, cents: Number(r.cents) }));
}

/** Stakes and payouts of the counted events carrying this metadata.session_id since `since` (a play session's). */
export async function sessionStakeTotals(
  db: Executor,
  tenantId: string,
  userId: string,
  sessionId: string,
  currency: string,
  scale: number,
  since: Date,
): Promise<WindowTotals> {
  const result = await sql<{ stakes: string; payouts: string }>`
    with ev as (${counted(tenantId, userId, currency, scale, since)} and e.metadata->>'session_id' = ${sessionId})
    select coalesce(sum(cents) filter (where event_type = 'wager'), 0)::text as stakes,
      coalesce(sum(cents) filter (where event_type = 'settlement'), 0)::text as payouts
    from ev`.execute(db);
  const row = result.rows[0]!;
  return { stakes: Number(row.stakes), payouts: Number(row.payouts) };
}

/** The currency of the session's first counted event, if any (a player with no limits has no currency of their own). */
export async function sessionCurrency(
  db: Executor,
  tenantId: string,
  userId: string,
  sessionId: string,
  since: Date,
): Promise<string | undefined> {
  const result = await sql<{ currency: string }>`
    select e.currency from aml_events e
    where ${countedSince(tenantId, userId, since)} and e.metadata->>'session_id' = ${sessionId}
    order by e.occurred_at limit 1`.execute(db);
  return result.rows[0]?.currency;
}

/** One player asked about (a wager check of a batch, or a listing): in which currency and its minor-unit scale, when. */
export interface StakeStateQuery {
  tenantId: string;
  userId: string;
  currency: string;
  scale: number;
  at: Date;
}

/** A player's stake state: the kept currency, loss and wager limits in force, live holds and window use. */
export interface StakeState {
  userCurrency: string | null;
  limits: StakeLimit[];
  /** Live holds, oldest first, and the wager events acknowledged since the oldest (which end holds). */
  holds: HeldStake[];
  acknowledged: AcknowledgedStake[];
  totals: Record<WindowType, WindowUse>;
}

interface StakeStateRow {
  user_currency: string | null;
  limits: Array<{ limit_id: string; kind: 'loss' | 'wager'; type: WindowType; amount_cents: number }> | null;
  holds: Array<{ amount_cents: number; held_at: string; expires_at: string }> | null;
  acknowledged: Array<{ amount_cents: number; received_at: string }> | null;
  totals: Record<
    WindowType,
    WindowTotals & { oldest_stake_at: string | null; oldest_at: string | null }
  > | null;
}

const NO_USE: Record<WindowType, WindowUse> = Object.fromEntries(
  WINDOW_TYPES.map((type) => [type, { stakes: 0, payouts: 0, oldestStakeAt: null, oldestAt: null }]),
) as Record<WindowType, WindowUse>;

const dateOrNull = (at: string | null) => (at === null ? null : new Date(at));

/** Each window's stakes and payouts of the counted events `ev`, and its oldest counted stake and event. */
const windowTotalsJson = sql.join(
  WINDOW_TYPES.map((type) => {
    const inWindow = sql`ev.occurred_at > i.at - make_interval(secs => ${WINDOW_SECONDS[type]})`;
    return sql`${type}::text, json_build_object(
      'stakes', coalesce(sum(ev.cents) filter (where ev.event_type = 'wager' and ${inWindow}), 0),
      'payouts', coalesce(sum(ev.cents) filter (where ev.event_type = 'settlement' and ${inWindow}), 0),
      'oldest_stake_at', min(ev.occurred_at) filter (where ev.event_type = 'wager' and ${inWindow}),
      'oldest_at', min(ev.occurred_at) filter (where ${inWindow}))`;
  }),
);

/**
 * The stake state of every player asked about in one statement (one round trip), in order; a check holds the
 * players' locks. Holds, acknowledged wagers and window use are read only for players with a loss or wager limit in
 * force: for the others a check is decided by the currency alone.
 */
export async function stakeStates(db: Executor, players: StakeStateQuery[]): Promise<StakeState[]> {
  const column = <T>(pick: (player: StakeStateQuery) => T) => players.map(pick);
  const result = await sql<StakeStateRow>`
    with input as (
      select * from unnest(${column((c) => c.tenantId)}::text[], ${column((c) => c.userId)}::text[],
        ${column((c) => c.currency)}::text[], ${column((c) => c.scale)}::integer[],
        ${column((c) => c.at)}::timestamptz[]) with ordinality as i(tenant_id, user_id, currency, scale, at, ord)
    ),
    in_force as (
      select distinct on (i.ord, l.limit_kind, l.limit_type) i.ord, l.limit_id, l.limit_kind, l.limit_type,
        l.amount_cents
      from input i join deposit_limits l on l.tenant_id = i.tenant_id and l.user_id = i.user_id
      where l.limit_kind in ('loss', 'wager') and ${inForce(sql`i.at`)}
      order by i.ord, l.limit_kind, l.limit_type, ${IN_FORCE_FIRST}
    ),
    limited as (select i.* from input i where i.ord in (select ord from in_force)),
    holds as (
      select i.ord, h.amount_cents, h.held_at, h.expires_at
      from limited i join stake_holds h on h.tenant_id = i.tenant_id and h.user_id = i.user_id and h.expires_at > i.at
    ),
    acknowledged as (
      select i.ord, e.amount_cents, e.received_at
      from limited i join (select ord, min(held_at) as since from holds group by ord) o on o.ord = i.ord
      join aml_events e on e.tenant_id = i.tenant_id and e.user_id = i.user_id and e.event_type = 'wager'
        and e.status <> 'failed' and e.received_at >= o.since
        -- The index is on occurred_at: an event acknowledged after the hold happened at most an hour before it.
        and e.occurred_at > o.since - interval '1 hour'
    ),
    totals as (
      select i.ord, json_build_object(${windowTotalsJson}) as totals
      from limited i cross join lateral (${counted(
        sql`i.tenant_id`,
        sql`i.user_id`,
        sql`i.currency`,
        sql`i.scale`,
        sql`(i.at - make_interval(secs => ${LONGEST_WINDOW_SECONDS}))`,
      )}) ev
      group by i.ord, i.at
    )
    select ${userCurrency(sql`i.tenant_id`, sql`i.user_id`)} as user_currency,
      (select json_agg(json_build_object('limit_id', f.limit_id, 'kind', f.limit_kind, 'type', f.limit_type,
        'amount_cents', f.amount_cents)) from in_force f where f.ord = i.ord) as limits,
      (select json_agg(json_build_object('amount_cents', h.amount_cents, 'held_at', h.held_at,
        'expires_at', h.expires_at) order by h.held_at) from holds h where h.ord = i.ord) as holds,
      (select json_agg(json_build_object('amount_cents', a.amount_cents, 'received_at', a.received_at))
        from acknowledged a where a.ord = i.ord) as acknowledged,
      t.totals
    from input i left join totals t on t.ord = i.ord
    order by i.ord`.execute(db);
  return result.rows.map((row) => ({
    userCurrency: row.user_currency,
    limits: (row.limits ?? []).map((l) => ({ ...l, amount_cents: Number(l.amount_cents) })),
    holds: (row.holds ?? []).map((h) => ({
      amount_cents: Number(h.amount_cents),
      held_at: new Date(h.held_at),
      expires_at: new Date(h.expires_at),
    })),
    acknowledged: (row.acknowledged ?? []).map((a) => ({
      amount_cents: Number(a.amount_cents),
      received_at: new Date(a.received_at),
    })),
    totals: row.totals
      ? (Object.fromEntries(
          WINDOW_TYPES.map((type) => {
            const use = row.totals![type];
            return [
              type,
              {
                stakes: Number(use.stakes),
                payouts: Number(use.payouts),
                oldestStakeAt: dateOrNull(use.oldest_stake_at),
                oldestAt: dateOrNull(use.oldest_at),
              },
            ];
          }),
        ) as Record<WindowType, WindowUse>)
      : NO_USE,
  }));
}

/** The holds placed by a batch's allowed checks. */
export async function insertStakeHolds(
  tx: Transaction<DB>,
  holds: Array<{
    tenant_id: string;
    hold_id: string;
    user_id: string;
    amount_cents: number;
    currency: string;
    held_at: Date;
    expires_at: Date;
  }>,
): Promise<void> {
  if (holds.length > 0) await tx.insertInto('stake_holds').values(holds).execute();
}
