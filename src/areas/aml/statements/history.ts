import { sql, type RawBuilder } from 'kysely';
import type { RuleCounts } from '../aml.rules.js';
import type { AmlEventMetadata, AmlEventType } from '../aml.tables.js';
import type { HistoryPoint } from '../rules/types.js';

/**
 * The history reads the rules make, as SQL fragments: each is one scalar subquery over a bounded window of one
 * user's events (a range scan of aml_events_user_time) or one fingerprint (aml_events_fingerprint). Fragments of
 * several rules are combined into a single statement (see checks.ts), so a screen is one round trip of reads.
 * None reads a user's whole history.
 */

/** At most this many transaction ids are put forward for review per finding. */
export const MAX_REVIEW_IDS = 50;

/** A window length: a number, or an expression (a tenant's setting read in the same statement). */
export type Seconds = number | RawBuilder<number>;

const ts = (value: Date) => sql`${value}::timestamptz`;
export const at = (p: HistoryPoint) => ts(p.at);
export const before = (p: HistoryPoint, seconds: Seconds) =>
  sql`${at(p)} - make_interval(secs => ${seconds})`;
const after = (p: HistoryPoint, seconds: number) => sql`${at(p)} + make_interval(secs => ${seconds})`;

/** The user's events, less the transaction under screen. */
export function ofUser(p: HistoryPoint) {
  const excluded = p.excludeTransactionId ? sql`and transaction_id <> ${p.excludeTransactionId}` : sql``;
  return sql`tenant_id = ${p.tenantId} and user_id = ${p.userId} ${excluded}`;
}

/**
 * What a rule counts, as a condition on an event row (optionally of an alias): every reported attempt, or only
 * events whose money moved. status is in aml_events_user_time, so the windows stay index-only.
 */
export function counted(counts: RuleCounts, alias?: string) {
  if (counts === 'attempts') return sql``;
  return sql`and ${sql.ref(alias ? `${alias}.status` : 'status')} = 'succeeded'`;
}

const types = (list: readonly AmlEventType[]) => sql.join(list.map((type) => sql`${type}`));

export interface WindowTotals {
  count: number;
  usd_cents: number;
  /** Largest first, at most MAX_REVIEW_IDS. */
  transaction_ids: string[];
  window_seconds: number;
}

/**
 * Count and USD total of the user's events of these types in (at − seconds, at] that the rule counts, optionally
 * within USD bands.
 */
export function windowTotals(
  p: HistoryPoint,
  input: {
    seconds: Seconds;
    types: readonly AmlEventType[];
    counts: RuleCounts;
    bands?: readonly (readonly [number, number])[];
  },
): RawBuilder<WindowTotals> {
  const bands = input.bands?.length
    ? sql`and (${sql.join(
        input.bands.map(([low, high]) => sql`usd_cents between ${low} and ${high}`),
        sql` or `,
      )})`
    : sql``;
  return sql<WindowTotals>`(
    select json_build_object(
      'count', count(*),
      'usd_cents', coalesce(sum(usd_cents), 0),
      'transaction_ids', coalesce((array_agg(transaction_id order by usd_cents desc, occurred_at desc))[1:${sql.raw(
        String(MAX_REVIEW_IDS),
      )}], '{}'),
      'window_seconds', ${input.seconds}::integer)
    from aml_events
    where ${ofUser(p)} and occurred_at > ${before(p, input.seconds)} and occurred_at <= ${at(p)}
      and event_type in (${types(input.types)}) ${counted(input.counts)} ${bands})`;
}

/**
 * The user's first counted event in (at − seconds, at] and the latest counted event before it (null when there is
 * none).
 */
export function reactivation(
  p: HistoryPoint,
  seconds: number,
  counts: RuleCounts,
): RawBuilder<{ first_at: string; previous_at: string | null } | null> {
  return sql`(
    select json_build_object('first_at', f.occurred_at, 'previous_at', (
      select max(occurred_at) from aml_events where ${ofUser(p)} and occurred_at < f.occurred_at ${counted(counts)}))
    from (
      select occurred_at from aml_events
      where ${ofUser(p)} and occurred_at > ${before(p, seconds)} and occurred_at <= ${at(p)} ${counted(counts)}
      order by occurred_at limit 1) f)`;
}

/** USD wagered by the user with occurred_at in [from, to], of the wagers the rule counts. */
export function wageredBetween(input: {
  tenantId: string;
  userId: string;
  from: Date;
  to: Date;
  counts: RuleCounts;
}): RawBuilder<number> {
  return sql<number>`(
    select coalesce(sum(usd_cents), 0) from aml_events
    where tenant_id = ${input.tenantId} and user_id = ${input.userId} and event_type = 'wager'
      and occurred_at >= ${ts(input.from)} and occurred_at <= ${ts(input.to)} ${counted(input.counts)})`;
}

export interface DepositWithWagers {
  event_id: string;
  transaction_id: string;
  usd_cents: number;
  wagered: number;
}

/** Counted deposits over a USD amount in (at − seconds, at], each with the counted USD wagered from it until `at`. */
export function depositsWithWagers(
  p: HistoryPoint,
  input: { seconds: number; overUsdCents: number; counts: RuleCounts },
): RawBuilder<DepositWithWagers[]> {
  return sql`(
    select coalesce(json_agg(json_build_object(
      'event_id', d.event_id, 'transaction_id', d.transaction_id, 'usd_cents', d.usd_cents,
      'wagered', (select coalesce(sum(w.usd_cents), 0) from aml_events w
        where w.tenant_id = d.tenant_id and w.user_id = d.user_id and w.event_type = 'wager'
          and w.occurred_at >= d.occurred_at and w.occurred_at <= ${at(p)} ${counted(input.counts, 'w')}))), '[]')
    from (
      select event_id, transaction_id, usd_cents, occurred_at, tenant_id, user_id from aml_events
      where ${ofUser(p)} and event_type = 'deposit' and usd_cents > ${input.overUsdCents} ${counted(input.counts)}
        and occurred_at > ${before(p, input.seconds)} and occurred_at <= ${at(p)}
      limit ${MAX_REVIEW_IDS}) d)`;
}

/**
 * The user's counted events of one type in [at − secondsBefore, at + secondsAfter] within tolerancePercent of
 * usdCents (of the larger amount).
 */
export function matchingLegs(
  p: HistoryPoint,
  input: {
    type: AmlEventType;
    secondsBefore: number;
    secondsAfter: number;
    usdCents: number;
    tolerancePercent: number;
    counts: RuleCounts;
  },
): RawBuilder<{ transaction_id: string; usd_cents: number }[]> {
  const amount = sql`${input.usdCents}::bigint`;
  return sql`(
    select coalesce(json_agg(json_build_object('transaction_id', m.transaction_id, 'usd_cents', m.usd_cents)
      order by m.occurred_at), '[]')
    from (
      select transaction_id, usd_cents, occurred_at from aml_events
      where ${ofUser(p)} and event_type = ${input.type} and usd_cents > 0 ${counted(input.counts)}
        and occurred_at >= ${before(p, input.secondsBefore)} and occurred_at <= ${after(p, input.secondsAfter)}
        and 100 * abs(usd_cents - ${amount}) <= ${input.tolerancePercent} * greatest(usd_cents, ${amount})
      order by occurred_at limit ${MAX_REVIEW_IDS}) m)`;
}

export interface FingerprintUser {
  user_id: string;
  transaction_id: string;
}

/**
 * Distinct users of the tenant who used a payment method fingerprint (up to `limit`), one transaction each. A
 * skip scan of aml_events_fingerprint: one index probe per user, however many events each user has. With
 * `unlessTripped`, nothing is read when that user already has an R-006 finding for the fingerprint.
 */
export function fingerprintUsers(input: {
  tenantId: string;
  /** A value, or a column of the enclosing query (see screen-history.ts). */
  fingerprint: string | RawBuilder<string>;
  limit: number;
  unlessTripped?: string | undefined;
}): RawBuilder<FingerprintUser[]> {
  const ofFingerprint = sql`tenant_id = ${input.tenantId} and fingerprint = ${input.fingerprint}`;
  const users = sql<FingerprintUser[]>`(
    with recursive u (user_id, n) as (
      (select user_id, 1 from aml_events where ${ofFingerprint} order by user_id limit 1)
      union all
      select (select user_id from aml_events where ${ofFingerprint} and user_id > u.user_id order by user_id limit 1), n + 1
      from u where u.user_id is not null and n < ${input.limit}
    )
    select coalesce(json_agg(json_build_object('user_id', u.user_id, 'transaction_id', (
      select transaction_id from aml_events where ${ofFingerprint} and user_id = u.user_id limit 1))), '[]')
    from u where u.user_id is not null)`;
  if (!input.unlessTripped) return users;
  return sql<FingerprintUser[]>`(case when exists (
      select 1 from aml_rule_trips where tenant_id = ${input.tenantId} and user_id = ${input.unlessTripped}
        and rule_code = 'R-006' and pattern_key = ${input.fingerprint})
    then '[]'::json else ${users} end)`;
}

export interface SessionEvent {
  transaction_id: string;
  event_type: string;
  metadata: AmlEventMetadata;
}

/**
 * The user's logins and deposits carrying a session id (optionally one session) with occurred_at in
 * [at − secondsBefore, at + secondsAfter].
 */
export function sessionEvents(
  p: HistoryPoint,
  input: { secondsBefore: number; secondsAfter: number; sessionId?: string | undefined },
): RawBuilder<SessionEvent[]> {
  const session = input.sessionId ? sql`and metadata->>'session_id' = ${input.sessionId}` : sql``;
  return sql`(
    select coalesce(json_agg(json_build_object(
      'transaction_id', s.transaction_id, 'event_type', s.event_type, 'metadata', s.metadata) order by s.occurred_at), '[]')
    from (
      select transaction_id, event_type, metadata, occurred_at from aml_events
      where ${ofUser(p)} and event_type in ('login', 'deposit') and metadata->>'session_id' is not null ${session}
        and occurred_at >= ${before(p, input.secondsBefore)} and occurred_at <= ${after(p, input.secondsAfter)}
      order by occurred_at limit 500) s)`;
}

export interface Reactivation {
  activity: WindowTotals;
  reactivation: { first_at: string; previous_at: string | null } | null;
}

/** R-008's read: the activity of these types in (at − seconds, at] and the reactivation in that window, at once. */
export function activityAndReactivation(
  p: HistoryPoint,
  input: { seconds: number; types: readonly AmlEventType[]; counts: RuleCounts },
): RawBuilder<Reactivation> {
  return sql<Reactivation>`json_build_object(
    'activity', ${windowTotals(p, input)},
    'reactivation', ${reactivation(p, input.seconds, input.counts)})`;
}

/** The tenant's R-009 window, read inside the statement that uses it: its setting, else `defaultSeconds`. */
export const r009Window = (tenantId: string, defaultSeconds: number) =>
  sql<number>`coalesce((select r009_window_seconds from aml_settings where tenant_id = ${tenantId}), ${defaultSeconds})`;
