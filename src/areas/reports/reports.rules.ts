/** The regulatory reports' rules as data (docs/reports.md). */

/** USD 10,000 in cents: a transaction, or a player's same-day total in one direction, at or over it is reported. */
export const THRESHOLD_USD_CENTS = 1_000_000;

/** The audit action each kind of version writes to the tenant's audit log. */
export const VERSION_AUDIT_ACTIONS = {
  original: 'report.compiled',
  amendment: 'report.amended',
  regeneration: 'report.regenerated',
} as const;

/** Written into every version: a change to what a report holds or how it is laid out takes a new generator version. */
export const GENERATOR_VERSION = 'reports/1.2';

/** The daily compilation runs this many minutes after midnight UTC (the day before; on the 1st, the month before). */
export const COMPILE_MINUTE = 15;
/** A run compiles at most this many missed days, then comes back a second later: one transaction stays bounded. */
export const MAX_DAYS_PER_RUN = 7;
/**
 * Late data is looked for among events received since the last run, less this margin: an event stamped just before
 * a compilation but committed just after it is still found. A recompilation with the same content is not stored.
 */
export const LATE_MARGIN_SECONDS = 300;

export const THRESHOLD_COLUMNS = [
  'utc_date',
  'user_id',
  'event_type',
  'trigger',
  'transaction_id',
  'amount',
  'currency',
  'amount_minor',
  'usd_amount',
  'usd_cents',
  'occurred_at',
  'kyc_tier',
  'aml_case_id',
  'aml_case_status',
  'day_total_usd_cents',
  'day_transactions',
] as const;

export const SELF_LIMITATION_COLUMNS = [
  'record_type',
  'kind',
  'occurred_at',
  'user_id',
  'reference_id',
  'limit_type',
  'amount_cents',
  'currency',
  'previous_amount_cents',
  'cooloff_seconds',
  'effective_from',
  'duration',
  'channel',
  'count',
] as const;

/** Every kind of row the self-limitation report counts, in the order its sections and totals appear. */
export const SELF_LIMITATION_KINDS = [
  'limit_set',
  'limit_decreased',
  'increase_requested',
  'increase_activated',
  'increase_cancelled',
  'exclusion_registered',
  'exclusion_expired',
  'exclusion_voided',
  'timeout_started',
  'timeout_extended',
  'timeout_ended',
  'breach_attempts',
] as const;
export type SelfLimitationKind = (typeof SELF_LIMITATION_KINDS)[number];

/**
 * The limit kinds the report counts, in the order of their rows and totals. A deposit limit's rows and totals keep the
 * kinds above (the spec's limit); another kind's take those names prefixed with it (`loss_limit_set`,
 * `wager_breach_attempts`, `play_time_increase_requested`).
 */
export const REPORTED_LIMIT_KINDS = ['deposit', 'loss', 'wager', 'play_time'] as const;
/** What the report counts of each limit kind besides deposit (in its totals where any happened). */
export const LIMIT_KIND_COUNTS = [
  'limit_set',
  'limit_decreased',
  'increase_requested',
  'increase_activated',
  'increase_cancelled',
  'breach_attempts',
  'breach_attempt_players',
] as const;
/** A limit row's kind: a deposit limit's own, another limit kind's prefixed with it. */
export const limitKindName = (limitKind: string, kind: string): string =>
  limitKind === 'deposit' ? kind : `${limitKind}_${kind}`;

/**
 * The safer-gambling report's columns (docs/reports.md): a marker's trip, an interaction, an owed interaction
 * overdue, a financial check called for, then the totals, each row filling the columns its record_type uses.
 */
export const SAFER_GAMBLING_COLUMNS = [
  'record_type',
  'occurred_at',
  'user_id',
  'reference_id',
  'code',
  'name',
  'level',
  'window',
  'kind',
  'outcome',
  'measured_value',
  'threshold',
  'amount_cents',
  'currency',
  'due_at',
  'hours_overdue',
  'status',
  'count',
  'longest_hours',
  'median_hours',
] as const;
