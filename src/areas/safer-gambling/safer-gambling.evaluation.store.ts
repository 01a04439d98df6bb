import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import {
  columnArrays,
  precompiled,
  unnestArrays,
  type ColumnArrays,
  type Param,
  type RowOf,
} from '../../platform/db/precompiled.js';
import { MARKERS } from './safer-gambling.markers.js';
import type { SgFinancialChecksTable, SgTenantSettingsRow } from './safer-gambling.tables.js';

/**
 * The reads the markers and the financial checks make. The AML events' reads (SG-001 to SG-004, net deposits)
 * take a batch of events at once, one statement per event kind, each a range scan of aml_events_user_time per
 * event (index-only: type, USD amount and status are in it), as the AML rules read it: amounts in USD cents at the
 * rate of each event's receipt. This area reads the AML events, the limits and the play sessions in SQL, as the
 * limits area reads aml_events; it imports none of their files.
 */

const DAY = 86_400;
const SG001 = MARKERS['SG-001'].thresholds;
const SG001_WINDOW = SG001.window_seconds.value;
const SG001_BASELINE = SG001.baseline_weeks.value * 7 * DAY;
const SG002_LOSS_WINDOW = MARKERS['SG-002'].thresholds.loss_window_seconds.value;
const SG003 = MARKERS['SG-003'].thresholds;
const SG004_WINDOW = MARKERS['SG-004'].thresholds.window_seconds.value;

export function tenantSettingsOf(db: Executor, tenantIds: string[]): Promise<SgTenantSettingsRow[]> {
  if (tenantIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('sg_tenant_settings').selectAll().where('tenant_id', 'in', tenantIds).execute();
}

const secondsBefore = (at: unknown, seconds: unknown) => sql`${at} - make_interval(secs => ${seconds})`;
const ofPlayer = (alias: string) =>
  sql`${sql.ref(`${alias}.tenant_id`)} = p.tenant_id and ${sql.ref(`${alias}.user_id`)} = p.user_id`;

/** A deposit of the batch, with what its reads depend on: its status, the tenant's SG-002 and profile settings. */
export const DEPOSIT_POINT = {
  tenant_id: 'text',
  user_id: 'text',
  at: 'timestamptz',
  status: 'text',
  chase_window_seconds: 'integer',
  chase_min_loss_usd_cents: 'bigint',
  profile_currency: 'text',
  profile_scale: 'bigint',
} as const;
export type DepositPoint = RowOf<typeof DEPOSIT_POINT>;

export interface DepositMeasures {
  window_usd_cents: string;
  baseline_usd_cents: string;
  first_at: Date | null;
  chasing_deposits: string;
  failed_deposits: string;
  /** Net deposits in the profile's currency (null: it has no rate), over 24 h, 30 d, 90 d ending at the deposit. */
  net_24h: string | null;
  net_30d: string | null;
  net_90d: string | null;
}

/**
 * SG-001 (a succeeded deposit): succeeded deposits in the window and in the 12 weeks before it, and the player's
 * first event. SG-002 (any deposit): the deposit attempts in (T − window, T], each counted when the player's stakes
 * less payouts (failed ones excluded) over the 24 hours up to it reach the threshold. SG-004 (a failed deposit):
 * failed deposits in 24 hours. Net deposits (a succeeded deposit): succeeded deposits less succeeded withdrawals in
 * USD, converted to the profile's currency at the rate in force (rounded to the cent).
 */
const depositStatement = precompiled(
  (_db, param: Param<ColumnArrays<typeof DEPOSIT_POINT>>) => sql<DepositMeasures>`
    select
      (select coalesce(sum(e.usd_cents), 0) from aml_events e
        where ${ofPlayer('e')} and p.status = 'succeeded' and e.event_type = 'deposit' and e.status = 'succeeded'
          and e.occurred_at > ${secondsBefore(sql`p.at`, SG001_WINDOW)} and e.occurred_at <= p.at
      )::text as window_usd_cents,
      (select coalesce(sum(e.usd_cents), 0) from aml_events e
        where ${ofPlayer('e')} and p.status = 'succeeded' and e.event_type = 'deposit' and e.status = 'succeeded'
          and e.occurred_at > ${secondsBefore(sql`p.at`, SG001_WINDOW + SG001_BASELINE)}
          and e.occurred_at <= ${secondsBefore(sql`p.at`, SG001_WINDOW)}
      )::text as baseline_usd_cents,
      (select e.occurred_at from aml_events e
        where ${ofPlayer('e')} and p.status = 'succeeded' order by e.occurred_at limit 1) as first_at,
      (select count(*) from aml_events d
        where ${ofPlayer('d')} and d.event_type = 'deposit'
          and d.occurred_at > ${secondsBefore(sql`p.at`, sql`p.chase_window_seconds`)} and d.occurred_at <= p.at
          and (select coalesce(sum(case when s.event_type = 'wager' then s.usd_cents else -s.usd_cents end), 0)
            from aml_events s
            where ${ofPlayer('s')} and s.event_type in ('wager', 'settlement') and s.status <> 'failed'
              and s.occurred_at > ${secondsBefore(sql`d.occurred_at`, SG002_LOSS_WINDOW)}
              and s.occurred_at <= d.occurred_at) >= p.chase_min_loss_usd_cents
      )::text as chasing_deposits,
      (select count(*) from aml_events e
        where ${ofPlayer('e')} and p.status = 'failed' and e.event_type = 'deposit' and e.status = 'failed'
          and e.occurred_at > ${secondsBefore(sql`p.at`, SG004_WINDOW)} and e.occurred_at <= p.at
      )::text as failed_deposits,
      round(n.usd_24h::numeric * p.profile_scale / (100 * r.usd_per_unit))::text as net_24h,
      round(n.usd_30d::numeric * p.profile_scale / (100 * r.usd_per_unit))::text as net_30d,
      round(n.usd_90d::numeric * p.profile_scale / (100 * r.usd_per_unit))::text as net_90d
    from ${unnestArrays(DEPOSIT_POINT, param)} with ordinality as p(${sql.join(
      Object.keys(DEPOSIT_POINT).map((name) => sql.ref(name)),
    )}, ord)
    cross join lateral (
      select
        coalesce(sum(case when e.event_type = 'deposit' then e.usd_cents else -e.usd_cents end)
          filter (where e.occurred_at > ${secondsBefore(sql`p.at`, DAY)}), 0) as usd_24h,
        coalesce(sum(case when e.event_type = 'deposit' then e.usd_cents else -e.usd_cents end)
          filter (where e.occurred_at > ${secondsBefore(sql`p.at`, 30 * DAY)}), 0) as usd_30d,
        coalesce(sum(case when e.event_type = 'deposit' then e.usd_cents else -e.usd_cents end), 0) as usd_90d
      from aml_events e
      where ${ofPlayer('e')} and p.status = 'succeeded' and e.event_type in ('deposit', 'withdrawal')
        and e.status = 'succeeded' and e.occurred_at > ${secondsBefore(sql`p.at`, 90 * DAY)}
        and e.occurred_at <= p.at
    ) n
    left join fx_rates r on r.currency = p.profile_currency
    order by p.ord`,
);

export async function depositMeasures(db: Executor, points: DepositPoint[]): Promise<DepositMeasures[]> {
  if (points.length === 0) return [];
  return depositStatement.execute(db, columnArrays(DEPOSIT_POINT, points));
}

/** A stake of the batch placed at night in its tenant's time zone. */
export const STAKE_POINT = {
  tenant_id: 'text',
  user_id: 'text',
  at: 'timestamptz',
  time_zone: 'text',
} as const;
export type StakePoint = RowOf<typeof STAKE_POINT>;

/** SG-003: the stakes (failed ones excluded) in the 7 days up to the stake, and those placed at night. */
const stakeStatement = precompiled(
  (_db, param: Param<ColumnArrays<typeof STAKE_POINT>>) => sql<{ stakes: string; night_stakes: string }>`
    select s.stakes::text as stakes, s.night_stakes::text as night_stakes
    from ${unnestArrays(STAKE_POINT, param)} with ordinality as p(tenant_id, user_id, at, time_zone, ord)
    cross join lateral (
      select count(*) as stakes,
        count(*) filter (where extract(hour from e.occurred_at at time zone p.time_zone)
          between ${SG003.night_start_hour.value} and ${SG003.night_end_hour.value - 1}) as night_stakes
      from aml_events e
      where ${ofPlayer('e')} and e.event_type = 'wager' and e.status <> 'failed'
        and e.occurred_at > ${secondsBefore(sql`p.at`, SG003.window_seconds.value)} and e.occurred_at <= p.at
    ) s
    order by p.ord`,
);

export async function stakeMeasures(db: Executor, points: StakePoint[]) {
  if (points.length === 0) return [];
  const rows = await stakeStatement.execute(db, columnArrays(STAKE_POINT, points));
  return rows.map((r) => ({ stakes: Number(r.stakes), nightStakes: Number(r.night_stakes) }));
}

/**
 * SG-005: limit increases the player requested (any kind, by requested_at) in (now − increases window, now], and
 * the limit.breach_attempt events the limits checks wrote for them in (now − breach window, now].
 */
export async function limitBehaviourMeasures(
  db: Executor,
  input: { tenantId: string; userId: string; now: Date; increasesSeconds: number; breachSeconds: number },
): Promise<{ increases: number; breachAttempts: number }> {
  const { tenantId, userId, now } = input;
  const result = await sql<{ increases: string; breach_attempts: string }>`
    select
      (select count(*) from deposit_limits
        where tenant_id = ${tenantId} and user_id = ${userId} and is_increase
          and requested_at > ${secondsBefore(sql`${now}::timestamptz`, input.increasesSeconds)}
          and requested_at <= ${now}::timestamptz)::text as increases,
      (select count(*) from events
        where tenant_id = ${tenantId} and (payload::jsonb -> 'data' ->> 'user_id') = ${userId}
          and event = 'limit.breach_attempt'
          and created_at > ${secondsBefore(sql`${now}::timestamptz`, input.breachSeconds)}
          and created_at <= ${now}::timestamptz)::text as breach_attempts`.execute(db);
  const row = result.rows[0]!;
  return { increases: Number(row.increases), breachAttempts: Number(row.breach_attempts) };
}

/**
 * SG-006: the player's allowed play sessions, each counted from its start up to its end, or for one never ended up
 * to now (and never past its counting bound): seconds played within (now − play window, now], and sessions that
 * lasted the long-session length and counted within the last 7 days. Overlapping sessions each count.
 */
export async function playMeasures(
  db: Executor,
  input: { tenantId: string; userId: string; now: Date; thresholds: Record<string, number> },
): Promise<{ playedSeconds: number; longSessions: number; open: { startedAt: Date; countedUntil: Date }[] }> {
  const { tenantId, userId, thresholds: t } = input;
  const now = sql`${input.now}::timestamptz`;
  const since = Math.max(t.play_window_seconds!, t.long_sessions_window_seconds!);
  const result = await sql<{
    started_at: Date;
    counted_until: Date;
    open: boolean;
    played_seconds: string;
    long: boolean;
    recent: boolean;
  }>`
    with s as (
      select started_at, counted_until, ended_at is null and counted_until > ${now} as open,
        least(coalesce(ended_at, ${now}), counted_until, ${now}) as until
      from play_sessions
      where tenant_id = ${tenantId} and user_id = ${userId} and allowed and started_at <= ${now}
        and counted_until > ${secondsBefore(now, since)}
    )
    select started_at, counted_until, open,
      greatest(0, floor(extract(epoch from until - greatest(started_at, ${secondsBefore(now, t.play_window_seconds)}))))::text
        as played_seconds,
      extract(epoch from until - started_at) >= ${t.long_session_seconds} as long,
      until > ${secondsBefore(now, t.long_sessions_window_seconds)} as recent
    from s`.execute(db);
  return {
    playedSeconds: result.rows.reduce((sum, r) => sum + Number(r.played_seconds), 0),
    longSessions: result.rows.filter((r) => r.long && r.recent).length,
    open: result.rows
      .filter((r) => r.open)
      .map((r) => ({ startedAt: r.started_at, countedUntil: r.counted_until })),
  };
}

/** The latest financial check called for each (user, level, window) of these players since `since`. */
export function latestFinancialChecks(db: Executor, tenantId: string, userIds: string[], since: Date) {
  return db
    .selectFrom('sg_financial_checks')
    .select(['user_id', 'level', 'window_name', (eb) => eb.fn.max('called_at').as('called_at')])
    .where('tenant_id', '=', tenantId)
    .where('user_id', 'in', userIds)
    .where('called_at', '>', since)
    .groupBy(['user_id', 'level', 'window_name'])
    .execute();
}

export async function insertFinancialChecks(
  db: Executor,
  rows: Insertable<SgFinancialChecksTable>[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('sg_financial_checks').values(rows).execute();
}
