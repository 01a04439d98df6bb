import { sql, type Transaction } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import type { DB } from '../../../platform/db/schema.js';
import { LONGEST_WINDOW_SECONDS, WINDOW_SECONDS, WINDOW_TYPES, type WindowType } from '../limits.rules.js';
import { IN_FORCE_FIRST, inForce } from '../statements/shared-rules.js';
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
/** Which of the player's events (aml_events e) count since `since`: stakes and payouts, failed ones excluded. */
const countedSince = (tenantId: string, userId: string, since: Date) =>
  sql`e.tenant_id = ${tenantId} and e.user_id = ${userId} and e.occurred_at > ${since}::timestamptz
      and e.event_type in ('wager', 'settlement') and e.status <> 'failed'`;

const counted = (tenantId: string, userId: string, currency: string, scale: number, since: Date) => sql`
    select e.event_type, e.occurred_at,
      case when e.currency = ${currency} then e.amount_cents
        else coalesce(floor(e.usd_cents::numeric * ${scale}::numeric
          / (100 * (select usd_per_unit from fx_rates where fx_rates.currency = ${currency}))), 0)::bigint
      end as cents
    from aml_events e
    where ${countedSince(tenantId, userId, since)}`;

/** Stakes and payouts in a window, with its oldest counted stake and event (when each leaves the window). */
export type WindowUse = WindowTotals & { oldestStakeAt: Date | null; oldestAt: Date | null };

/** Stakes and payouts in each rolling window ending now. */
export async function stakeTotals(
  db: Executor,
  tenantId: string,
  userId: string,
  currency: string,
  scale: number,
  now: Date,
): Promise<Record<WindowType, WindowUse>> {
  const since = new Date(now.getTime() - LONGEST_WINDOW_SECONDS * 1000);
  const windows = sql.join(
    WINDOW_TYPES.map(
      (type) => sql`(${type}::text, ${new Date(now.getTime() - WINDOW_SECONDS[type] * 1000)}::timestamptz)`,
    ),
  );
  const result = await sql<{
    limit_type: WindowType;
    stakes: string;
    payouts: string;
    oldest_stake_at: Date | null;
    oldest_at: Date | null;
  }>`
    with ev as (${counted(tenantId, userId, currency, scale, since)})
    select w.limit_type,
      coalesce(sum(ev.cents) filter (where ev.event_type = 'wager'), 0)::text as stakes,
      coalesce(sum(ev.cents) filter (where ev.event_type = 'settlement'), 0)::text as payouts,
      min(ev.occurred_at) filter (where ev.event_type = 'wager') as oldest_stake_at,
      min(ev.occurred_at) as oldest_at
    from (values ${windows}) as w(limit_type, since)
    left join ev on ev.occurred_at > w.since
    group by w.limit_type`.execute(db);
  const totals = {} as Record<WindowType, WindowUse>;
  for (const row of result.rows) {
    totals[row.limit_type] = {
      stakes: Number(row.stakes),
      payouts: Number(row.payouts),
      oldestStakeAt: row.oldest_stake_at,
      oldestAt: row.oldest_at,
    };
  }
  return totals;
}

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

/** The wager events acknowledged for the player since `since`, in their own amounts (what ends a hold). */
export async function wagersAcknowledgedSince(
  db: Executor,
  tenantId: string,
  userId: string,
  since: Date,
): Promise<AcknowledgedStake[]> {
  const rows = await db
    .selectFrom('aml_events')
    .select(['amount_cents', 'received_at'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('event_type', '=', 'wager')
    .where('status', '<>', 'failed')
    // The index is on occurred_at: an event acknowledged after the hold happened at most an hour before it.
    .where('occurred_at', '>', new Date(since.getTime() - 3_600_000))
    .where('received_at', '>=', since)
    .execute();
  return rows.map((r) => ({ amount_cents: Number(r.amount_cents), received_at: r.received_at }));
}

/** The player's loss and wager limits in force at `now`, one of each kind and window (the due increase first). */
export async function stakeLimitsInForce(
  db: Executor,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<StakeLimit[]> {
  const result = await sql<{
    limit_id: string;
    limit_kind: 'loss' | 'wager';
    limit_type: WindowType;
    amount_cents: string;
  }>`
    select distinct on (limit_kind, limit_type) limit_id, limit_kind, limit_type, amount_cents::text
    from deposit_limits
    where tenant_id = ${tenantId} and user_id = ${userId} and limit_kind in ('loss', 'wager')
      and ${inForce(sql`${now}::timestamptz`)}
    order by limit_kind, limit_type, ${IN_FORCE_FIRST}`.execute(db);
  return result.rows.map((r) => ({
    limit_id: r.limit_id,
    kind: r.limit_kind,
    type: r.limit_type,
    amount_cents: Number(r.amount_cents),
  }));
}

/** The player's holds not lapsed at `now`, oldest first (lapsed ones wait for the purge job). */
export async function liveStakeHolds(
  db: Executor,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<HeldStake[]> {
  const rows = await db
    .selectFrom('stake_holds')
    .select(['amount_cents', 'held_at', 'expires_at'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('held_at')
    .execute();
  return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) }));
}

export async function insertStakeHold(
  tx: Transaction<DB>,
  hold: {
    tenant_id: string;
    hold_id: string;
    user_id: string;
    amount_cents: number;
    currency: string;
    held_at: Date;
    expires_at: Date;
  },
): Promise<void> {
  await tx.insertInto('stake_holds').values(hold).execute();
}

/** Lapsed holds of players not checked since, a batch at a time (the purge job). */
export async function purgeStakeHolds(tx: Transaction<DB>, before: Date, batch: number): Promise<number> {
  const result = await sql`
    delete from stake_holds where (tenant_id, hold_id) in (
      select tenant_id, hold_id from stake_holds where expires_at < ${before}::timestamptz
      order by expires_at limit ${batch})`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}
