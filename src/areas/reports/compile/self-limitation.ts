import type { Executor } from '../../../platform/db/database.js';
import type { Environment } from '../../../platform/db/platform-tables.js';
import {
  LIMIT_KIND_COUNTS,
  limitKindName,
  REPORTED_LIMIT_KINDS,
  SELF_LIMITATION_KINDS,
  type SelfLimitationKind,
} from '../reports.rules.js';
import {
  breachAttempts,
  exclusionChanges,
  limitsActivated,
  limitsCancelled,
  limitsRequested,
  regulatorRegistrations,
  timeOutChanges,
  type Keyset,
  type LimitChange,
  type Period,
} from '../reports.sources.store.js';

const PAGE = 1000;

export type SelfLimitationRecord = Record<string, string | number | null>;
export interface SelfLimitationItem {
  total: boolean;
  record: SelfLimitationRecord;
}

const EMPTY = {
  occurred_at: null,
  user_id: null,
  reference_id: null,
  limit_type: null,
  amount_cents: null,
  currency: null,
  previous_amount_cents: null,
  cooloff_seconds: null,
  effective_from: null,
  duration: null,
  channel: null,
  count: null,
};

/** Walks a keyset source a page at a time. */
async function* paged<T extends { at: Date }>(
  page: (after: Keyset | null) => Promise<T[]>,
  idOf: (row: T) => string,
): AsyncGenerator<T> {
  let after: Keyset | null = null;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.at, id: idOf(last) };
  }
}

/** A limit change: a deposit limit's under its kind, another limit kind's under the kind prefixed with it. */
function limitRecord(kind: SelfLimitationKind, row: LimitChange): SelfLimitationRecord {
  return {
    record_type: 'event',
    kind: limitKindName(row.limit_kind, kind),
    ...EMPTY,
    occurred_at: row.at.toISOString(),
    user_id: row.user_id,
    reference_id: row.limit_id,
    limit_type: row.limit_type,
    amount_cents: row.amount_cents,
    currency: row.currency,
    previous_amount_cents: row.current_limit_cents,
    cooloff_seconds: row.cooloff_seconds,
    effective_from: row.effective_from.toISOString(),
  };
}

/** A register row's or a time-out's change: the same record, its duration and channel, under its own id. */
function durationRecord(
  kind: SelfLimitationKind,
  row: { user_id: string | null; duration: string; channel: string; at: Date },
  referenceId: string,
): SelfLimitationRecord {
  return {
    record_type: 'event',
    kind,
    ...EMPTY,
    occurred_at: row.at.toISOString(),
    user_id: row.user_id,
    reference_id: referenceId,
    duration: row.duration,
    channel: row.channel,
  };
}

/** A requested change's kind: a first limit of its type, a decrease (at once), or an increase (cooling off). */
const requestedKind = (row: LimitChange): SelfLimitationKind =>
  row.current_limit_cents === null ? 'limit_set' : row.is_increase ? 'increase_requested' : 'limit_decreased';

/**
 * The self-limitation report: every limit change of every limit kind (set, decreased, increase requested with its
 * cool-off, activated, cancelled), the tenant's exclusions registered, expired and voided, its time-outs started,
 * extended and ended, breach attempts per limit kind and player, then the period's totals (by kind, deposit limits'
 * under the plain names; the other limit kinds' where any; exclusion registrations by duration and channel, the
 * regulator's own list included as channel regulator; time-outs started and extended by duration and channel).
 * Sections in that order, each in time order; totals are counted as the rows go by, never by holding them.
 */
export async function* selfLimitationRows(
  db: Executor,
  period: Period,
  environment: Environment,
): AsyncGenerator<SelfLimitationItem> {
  /** By the record's kind: SELF_LIMITATION_KINDS, and the other limit kinds' prefixed ones (loss_limit_set). */
  const counts = new Map<string, number>(SELF_LIMITATION_KINDS.map((k) => [k, 0]));
  const registrations = new Map<string, number>();
  /** `kind|duration|channel` of the time-outs started and extended: the report counts them by duration. */
  const timeOuts = new Map<string, number>();
  const emit = (record: SelfLimitationRecord) => {
    const kind = record.kind as string;
    counts.set(
      kind,
      (counts.get(kind) ?? 0) + (record.record_type === 'breach_attempts' ? Number(record.count) : 1),
    );
    if (kind === 'exclusion_registered') {
      const key = `${record.duration}|${record.channel}`;
      registrations.set(key, (registrations.get(key) ?? 0) + 1);
    }
    if (kind === 'timeout_started' || kind === 'timeout_extended') {
      const key = `${kind}|${record.duration}|${record.channel}`;
      timeOuts.set(key, (timeOuts.get(key) ?? 0) + 1);
    }
    return { total: false, record };
  };

  for await (const row of paged(
    (after) => limitsRequested(db, period, after, PAGE),
    (r) => r.limit_id,
  )) {
    yield emit(limitRecord(requestedKind(row), row));
  }
  for await (const row of paged(
    (after) => limitsActivated(db, period, after, PAGE),
    (r) => r.limit_id,
  )) {
    yield emit(limitRecord('increase_activated', row));
  }
  for await (const row of paged(
    (after) => limitsCancelled(db, period, after, PAGE),
    (r) => r.limit_id,
  )) {
    yield emit(limitRecord('increase_cancelled', row));
  }
  for (const [moment, kind] of [
    ['registered', 'exclusion_registered'],
    ['expired', 'exclusion_expired'],
    ['voided', 'exclusion_voided'],
  ] as const) {
    for await (const row of paged(
      (after) => exclusionChanges(db, period, moment, after, PAGE),
      (r) => r.exclusion_id,
    )) {
      yield emit(durationRecord(kind, row, row.exclusion_id));
    }
  }
  for await (const row of paged(
    (after) => timeOutChanges(db, period, 'started', after, PAGE),
    (r) => r.time_out_id,
  )) {
    const kind = row.extends_time_out_id === null ? 'timeout_started' : 'timeout_extended';
    yield emit(durationRecord(kind, row, row.time_out_id));
  }
  for await (const row of paged(
    (after) => timeOutChanges(db, period, 'ended', after, PAGE),
    (r) => r.time_out_id,
  )) {
    yield emit(durationRecord('timeout_ended', row, row.time_out_id));
  }
  // Per limit kind, then per player: a deposit limit's first, as breach_attempts; the others' prefixed.
  for (const limitKind of REPORTED_LIMIT_KINDS) {
    const kind = limitKindName(limitKind, 'breach_attempts');
    const players = limitKindName(limitKind, 'breach_attempt_players');
    for (let afterUser: string | null = null; ;) {
      const rows = await breachAttempts(db, period, limitKind, afterUser, PAGE);
      for (const row of rows) {
        counts.set(players, (counts.get(players) ?? 0) + 1);
        yield emit({
          record_type: 'breach_attempts',
          kind,
          ...EMPTY,
          occurred_at: row.last_at.toISOString(),
          user_id: row.user_id,
          count: Number(row.attempts),
        });
      }
      if (rows.length < PAGE) break;
      afterUser = rows[rows.length - 1]!.user_id;
    }
  }

  // The regulator's own list is matched for the tenant too: its registrations are counted, not listed.
  for (const row of await regulatorRegistrations(db, environment, period)) {
    const key = `${row.duration}|regulator`;
    registrations.set(key, (registrations.get(key) ?? 0) + Number(row.registered));
  }
  const total = (record: Partial<SelfLimitationRecord>): SelfLimitationItem => ({
    total: true,
    record: { record_type: 'total', kind: null, ...EMPTY, ...record },
  });
  for (const kind of SELF_LIMITATION_KINDS) yield total({ kind, count: counts.get(kind)! });
  yield total({ kind: 'breach_attempt_players', count: counts.get('breach_attempt_players') ?? 0 });
  // The other limit kinds' counts, each where any happened in the period (as registrations by duration).
  for (const limitKind of REPORTED_LIMIT_KINDS.filter((k) => k !== 'deposit')) {
    for (const counted of LIMIT_KIND_COUNTS) {
      const kind = limitKindName(limitKind, counted);
      if (counts.get(kind)) yield total({ kind, count: counts.get(kind)! });
    }
  }
  for (const key of [...registrations.keys()].sort()) {
    const [duration, channel] = key.split('|');
    yield total({ kind: 'exclusion_registered', duration, channel, count: registrations.get(key)! });
  }
  for (const key of [...timeOuts.keys()].sort()) {
    const [kind, duration, channel] = key.split('|');
    yield total({ kind, duration, channel, count: timeOuts.get(key)! });
  }
}
