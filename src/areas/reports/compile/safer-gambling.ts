import type { Executor } from '../../../platform/db/database.js';
import {
  FINANCIAL_CHECK_LEVELS,
  INTERACTION_KINDS,
  INTERACTION_OUTCOMES,
  MARKER_CODES,
  MARKERS,
} from '../../safer-gambling/index.js';
import type { Keyset, Period } from '../reports.sources.store.js';
import * as sources from './safer-gambling.store.js';

const PAGE = 1000;
const HOUR_MS = 3_600_000;

export type SaferGamblingRecord = Record<string, string | number | null>;
export interface SaferGamblingItem {
  total: boolean;
  record: SaferGamblingRecord;
  /** The UTC day the row counts in (the console's chart): when the service recorded it. */
  day?: string | null;
}

const EMPTY: SaferGamblingRecord = {
  occurred_at: null,
  user_id: null,
  reference_id: null,
  code: null,
  name: null,
  level: null,
  window: null,
  kind: null,
  outcome: null,
  measured_value: null,
  threshold: null,
  amount_cents: null,
  currency: null,
  due_at: null,
  hours_overdue: null,
  status: null,
  count: null,
  longest_hours: null,
  median_hours: null,
};

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

/** Hours from a due time to a moment, to a tenth. */
const hoursPast = (dueAt: Date, at: Date) =>
  Math.round((at.getTime() - dueAt.getTime()) / (HOUR_MS / 10)) / 10;

function median(sorted: number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round(((sorted[mid - 1]! + sorted[mid]!) / 2) * 10) / 10;
}

const day = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The monthly safer-gambling report (docs/reports.md): every marker tripped, every interaction recorded, every
 * owed interaction overdue (settled late in the month, or still open at its end, with the hours past its due
 * time), every financial check called for; then the totals: trips by marker, interactions by kind, by outcome and
 * by both, the overdue interactions' count with the longest and median hours, checks by level and window.
 */
export async function* saferGamblingRows(db: Executor, period: Period): AsyncGenerator<SaferGamblingItem> {
  const trips = new Map<string, number>(MARKER_CODES.map((c) => [c, 0]));
  for await (const row of paged(
    (after) => sources.markerTrips(db, period, after, PAGE),
    (r) => r.trip_id,
  )) {
    trips.set(row.code, (trips.get(row.code) ?? 0) + 1);
    yield {
      total: false,
      day: day(row.at),
      record: {
        record_type: 'marker_trip',
        ...EMPTY,
        occurred_at: row.at.toISOString(),
        user_id: row.user_id,
        reference_id: row.trip_id,
        code: row.code,
        name: MARKERS[row.code as keyof typeof MARKERS]?.name ?? null,
        level: row.level,
        measured_value: row.measured_value,
        threshold: row.threshold,
      },
    };
  }

  const byKind = new Map<string, number>(INTERACTION_KINDS.map((k) => [k, 0]));
  const byOutcome = new Map<string, number>(INTERACTION_OUTCOMES.map((o) => [o, 0]));
  const byBoth = new Map<string, number>();
  for await (const row of paged(
    (after) => sources.interactions(db, period, after, PAGE),
    (r) => r.interaction_id,
  )) {
    byKind.set(row.kind, (byKind.get(row.kind) ?? 0) + 1);
    byOutcome.set(row.outcome, (byOutcome.get(row.outcome) ?? 0) + 1);
    const both = `${row.kind}|${row.outcome}`;
    byBoth.set(both, (byBoth.get(both) ?? 0) + 1);
    yield {
      total: false,
      day: day(row.at),
      record: {
        record_type: 'interaction',
        ...EMPTY,
        occurred_at: row.occurred_at.toISOString(),
        user_id: row.user_id,
        reference_id: row.interaction_id,
        kind: row.kind,
        outcome: row.outcome,
        due_at: row.settled_due_at?.toISOString() ?? null,
      },
    };
  }

  // Settled late: hours from the due time to the interaction's receipt; still open at the month's end: to the end.
  const hours: number[] = [];
  for (const row of await sources.settledLate(db, period)) {
    const late = hoursPast(row.settled_due_at!, row.at);
    hours.push(late);
    yield {
      total: false,
      day: day(row.at),
      record: {
        record_type: 'interaction_overdue',
        ...EMPTY,
        occurred_at: row.at.toISOString(),
        user_id: row.user_id,
        reference_id: row.interaction_id,
        due_at: row.settled_due_at!.toISOString(),
        hours_overdue: late,
        status: 'settled_late',
      },
    };
  }
  for (const row of await sources.openAtEnd(db, period)) {
    const late = hoursPast(row.due_at, period.end);
    hours.push(late);
    yield {
      total: false,
      day: null,
      record: {
        record_type: 'interaction_overdue',
        ...EMPTY,
        user_id: row.user_id,
        due_at: row.due_at.toISOString(),
        hours_overdue: late,
        status: 'open_at_end',
      },
    };
  }

  const checks = new Map<string, number>();
  const checksByLevel = new Map<string, number>(FINANCIAL_CHECK_LEVELS.map((l) => [l, 0]));
  for await (const row of paged(
    (after) => sources.financialChecks(db, period, after, PAGE),
    (r) => r.check_id,
  )) {
    const key = `${row.level}|${row.window_name}`;
    checks.set(key, (checks.get(key) ?? 0) + 1);
    checksByLevel.set(row.level, (checksByLevel.get(row.level) ?? 0) + 1);
    yield {
      total: false,
      day: day(row.at),
      record: {
        record_type: 'financial_check',
        ...EMPTY,
        occurred_at: row.at.toISOString(),
        user_id: row.user_id,
        reference_id: row.check_id,
        level: row.level,
        window: row.window_name,
        amount_cents: row.net_deposits_cents,
        currency: row.currency,
        threshold: row.threshold_cents,
      },
    };
  }

  const total = (record: SaferGamblingRecord): SaferGamblingItem => ({
    total: true,
    record: { ...EMPTY, ...record },
  });
  for (const code of MARKER_CODES) {
    const { name, level } = MARKERS[code];
    yield total({ record_type: 'markers_tripped', code, name, level, count: trips.get(code)! });
  }
  for (const kind of INTERACTION_KINDS) {
    yield total({ record_type: 'interactions', kind, count: byKind.get(kind)! });
  }
  for (const outcome of INTERACTION_OUTCOMES) {
    yield total({ record_type: 'interactions', outcome, count: byOutcome.get(outcome)! });
  }
  // Each kind and outcome seen together, in the catalogue's order.
  for (const kind of INTERACTION_KINDS) {
    for (const outcome of INTERACTION_OUTCOMES) {
      const count = byBoth.get(`${kind}|${outcome}`);
      if (count) yield total({ record_type: 'interactions', kind, outcome, count });
    }
  }
  hours.sort((a, b) => a - b);
  yield total({
    record_type: 'interactions_overdue',
    count: hours.length,
    longest_hours: hours.at(-1) ?? null,
    median_hours: median(hours),
  });
  for (const level of FINANCIAL_CHECK_LEVELS) {
    yield total({ record_type: 'financial_checks', level, count: checksByLevel.get(level)! });
  }
  for (const key of [...checks.keys()].sort()) {
    const [level = null, window = null] = key.split('|');
    yield total({ record_type: 'financial_checks', level, window, count: checks.get(key)! });
  }
}
