import { sql, type RawBuilder } from 'kysely';
import type { RuleCounts } from '../aml.rules.js';
import {
  at,
  before,
  counted,
  fingerprintUsers,
  MAX_REVIEW_IDS,
  ofUser,
  type FingerprintUser,
} from './history.js';
import type { HistoryPoint } from '../rules/types.js';

/**
 * History reads only a real-time screen makes: patterns already in the user's recorded history at this moment,
 * with the withdrawal under screen left out (it counts only for R-001 and as R-005's withdrawal leg). Each is a
 * bounded read, never a scan of the user's whole history.
 */

export interface SharedFingerprint {
  fingerprint: string;
  /** Every user of the fingerprint (this one included), at most maxUsers, one transaction each. */
  users: FingerprintUser[];
}

/**
 * The user's recorded fingerprints (at most maxFingerprints, by a skip scan of aml_events_user_fingerprint: one
 * index probe per distinct fingerprint), each with its users in the tenant.
 */
export function recordedFingerprints(
  p: HistoryPoint,
  input: { maxFingerprints: number; maxUsers: number },
): RawBuilder<SharedFingerprint[]> {
  const mine = sql`${ofUser(p)} and fingerprint is not null`;
  const users = fingerprintUsers({
    tenantId: p.tenantId,
    fingerprint: sql<string>`fp.fingerprint`,
    limit: input.maxUsers,
  });
  return sql<SharedFingerprint[]>`(
    with recursive fp (fingerprint, n) as (
      (select fingerprint, 1 from aml_events where ${mine} order by fingerprint limit 1)
      union all
      select (select fingerprint from aml_events where ${mine} and fingerprint > fp.fingerprint
        order by fingerprint limit 1), n + 1
      from fp where fp.fingerprint is not null and n < ${input.maxFingerprints}
    )
    select coalesce(json_agg(json_build_object('fingerprint', fp.fingerprint, 'users', ${users})), '[]')
    from fp where fp.fingerprint is not null)`;
}

export interface RecordedPair {
  deposit: string;
  withdrawal: string;
  deposit_usd_cents: number;
  withdrawal_usd_cents: number;
}

/**
 * Recorded (counted) deposit/withdrawal pairs whose later leg is in (T − seconds, T]: for each such leg, the legs of the
 * other type in [leg − seconds, leg] within tolerancePercent of the larger amount.
 */
export function recordedPairs(
  p: HistoryPoint,
  input: { seconds: number; tolerancePercent: number; counts: RuleCounts },
): RawBuilder<RecordedPair[]> {
  const other = sql`case when l.event_type = 'deposit' then 'withdrawal' else 'deposit' end`;
  return sql<RecordedPair[]>`(
    select coalesce(json_agg(json_build_object(
      'deposit', case when l.event_type = 'deposit' then l.transaction_id else c.transaction_id end,
      'withdrawal', case when l.event_type = 'deposit' then c.transaction_id else l.transaction_id end,
      'deposit_usd_cents', case when l.event_type = 'deposit' then l.usd_cents else c.usd_cents end,
      'withdrawal_usd_cents', case when l.event_type = 'deposit' then c.usd_cents else l.usd_cents end)), '[]')
    from (
      select transaction_id, event_type, usd_cents, occurred_at from aml_events
      where ${ofUser(p)} and event_type in ('deposit', 'withdrawal') and usd_cents > 0 ${counted(input.counts)}
        and occurred_at > ${before(p, input.seconds)} and occurred_at <= ${at(p)}
      order by occurred_at desc limit ${MAX_REVIEW_IDS}) l
    cross join lateral (
      select transaction_id, usd_cents from aml_events
      where ${ofUser(p)} and event_type = ${other} and usd_cents > 0 ${counted(input.counts)}
        and occurred_at >= l.occurred_at - make_interval(secs => ${input.seconds}) and occurred_at <= l.occurred_at
        and 100 * abs(usd_cents - l.usd_cents) <= ${input.tolerancePercent} * greatest(usd_cents, l.usd_cents)
      order by occurred_at limit ${MAX_REVIEW_IDS}) c)`;
}
