import type { ColumnType, Generated, JSONColumnType, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';
import type { AmlEventType, RuleCode, ScreenDecision } from './aml.rules.js';

export type { AmlEventType } from './aml.rules.js';

/** What became of a transaction (metadata.status); absent means succeeded. */
export const EVENT_OUTCOMES = ['succeeded', 'failed', 'pending'] as const;
export type AmlEventOutcome = (typeof EVENT_OUTCOMES)[number];

export interface AmlEventMetadata {
  ip_country?: string;
  card_country?: string;
  session_id?: string;
  payment_method_fingerprint?: string;
  status?: AmlEventOutcome;
  [key: string]: unknown;
}

/**
 * Every transaction event a tenant sends, durably stored before it is acknowledged; only a pending status changes.
 * Partitioned by month of occurred_at (docs/data.md, Partitions): a statement that knows an event's occurred_at
 * names it, so that it reads one partition.
 */
export interface AmlEventsTable {
  event_id: string;
  tenant_id: string;
  user_id: string;
  event_type: AmlEventType;
  transaction_id: string;
  amount_cents: number;
  currency: string;
  usd_cents: number;
  payment_method: string | null;
  /** metadata.payment_method_fingerprint, on deposits, withdrawals and account updates; never payment_method. */
  fingerprint: string | null;
  /** metadata.status, else succeeded: value rules count only succeeded events. */
  status: Generated<AmlEventOutcome>;
  metadata: JSONColumnType<AmlEventMetadata>;
  occurred_at: Timestamp;
  received_at: Timestamp;
  /** When a pending event's outcome arrived; null for an event received with its outcome. */
  settled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  request_hash: string;
}

/**
 * The natural key of every event, unique across aml_events' partitions (a unique index there would have to include
 * occurred_at): written by the statement that stores the event, before it, and deleted once its partition is dropped.
 */
export interface AmlEventKeysTable {
  tenant_id: string;
  transaction_id: string;
  event_id: string;
  occurred_at: Timestamp;
}

/**
 * The events not yet evaluated: each row is deleted by the transaction that evaluates its event. occurred_at names
 * the partition of aml_events that holds the event.
 */
export interface AmlEvaluationQueueTable {
  event_id: string;
  received_at: Timestamp;
  occurred_at: Timestamp;
}

/** Open statuses first; cleared and frozen are final. */
export const OPEN_CASE_STATUSES = ['under_review', 'held', 'escalated'] as const;
export type AmlCaseStatus = (typeof OPEN_CASE_STATUSES)[number] | 'cleared' | 'frozen';
/** The statuses in which a case waits on a reviewer, with a due time: escalated is with the SAR process. */
export const AWAITING_REVIEW_STATUSES = ['under_review', 'held'] as const satisfies readonly AmlCaseStatus[];

/** Where a case came from: async monitoring, or a real-time screen that decided hold or reject. */
export const CASE_ORIGINS = ['async', 'screen_hold', 'screen_reject'] as const;
export type AmlCaseOrigin = (typeof CASE_ORIGINS)[number];

/** One trip as staff see it in a case's context. Staff only (tipping-off). */
export interface TripContext {
  rule_code: RuleCode;
  pattern_key: string;
  /** Event time of the trip. */
  at: string;
  transaction_ids: string[];
  details: Record<string, unknown>;
}

export interface AmlCasesTable {
  case_id: string;
  tenant_id: string;
  user_id: string;
  status: AmlCaseStatus;
  source: 'realtime' | 'async';
  origin: AmlCaseOrigin;
  withdrawal_id: string | null;
  rules_triggered: JSONColumnType<RuleCode[]>;
  risk_score: number;
  transaction_ids: JSONColumnType<string[]>;
  context: JSONColumnType<TripContext[]>;
  opened_at: Timestamp;
  updated_at: Timestamp;
  decided_at: Timestamp | null;
  reviewer: string | null;
  /** opened_at + the review SLA (48 hours). */
  due_at: Timestamp;
  /** When the case left review (its first decision to a status not awaiting review); null while it waits. */
  reviewed_at: Timestamp | null;
  /** The reviewer's reason for the latest decision. */
  decision_reason: string | null;
}

/** One real-time screen per withdrawal: the request, and the decision returned for it. */
export interface AmlScreensTable {
  tenant_id: string;
  withdrawal_id: string;
  user_id: string;
  amount_cents: number;
  currency: string;
  usd_cents: number;
  payment_method: string;
  destination_country: string;
  decision: ScreenDecision;
  risk_score: number;
  rules_triggered: JSONColumnType<RuleCode[]>;
  case_id: string | null;
  request_hash: string;
  screened_at: Timestamp;
}

/** A pattern already reported for a user: the same pattern does not open a case again. */
export interface AmlRuleTripsTable {
  tenant_id: string;
  user_id: string;
  rule_code: RuleCode;
  /** The pattern's identity ('' for window rules, which cool down for one window instead). */
  pattern_key: string;
  case_id: string;
  /** Event time of the (latest) trip. */
  tripped_at: Timestamp;
}

export interface AmlSettingsTable {
  tenant_id: string;
  r009_window_seconds: number;
  updated_at: Timestamp;
}

/** An event whose evaluation kept failing; redriven_at is set when staff put it back in the queue. */
export interface AmlDeadLettersTable {
  dead_letter_id: string;
  event_id: string;
  tenant_id: string;
  attempts: number;
  last_error: string;
  dead_lettered_at: Timestamp;
  redriven_at: Timestamp | null;
  redriven_by: string | null;
}

export interface AmlTables {
  aml_events: AmlEventsTable;
  aml_event_keys: AmlEventKeysTable;
  aml_evaluation_queue: AmlEvaluationQueueTable;
  aml_cases: AmlCasesTable;
  aml_screens: AmlScreensTable;
  aml_rule_trips: AmlRuleTripsTable;
  aml_settings: AmlSettingsTable;
  aml_dead_letters: AmlDeadLettersTable;
}

export type AmlEvent = Selectable<AmlEventsTable>;
export type AmlCase = Selectable<AmlCasesTable>;
export type AmlScreen = Selectable<AmlScreensTable>;
export type AmlDeadLetter = Selectable<AmlDeadLettersTable>;
