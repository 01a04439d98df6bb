import { Type, type Static } from 'typebox';
import type { EventDataOf, EventSchemas } from '../../platform/events.js';
import {
  ClientTimestamp,
  DecisionProposal,
  CurrencyCode,
  jsonLimits,
  NullableTimestamp,
  Timestamp,
} from '../../platform/schemas.js';
import { RULE_CODES, EVENT_TYPES } from './aml.rules.js';
import { DECISION_ACTIONS } from './aml.case-rules.js';
import { CASE_ORIGINS, EVENT_OUTCOMES, OPEN_CASE_STATUSES } from './aml.tables.js';

const UserId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The tenant's own player identifier",
});
const Identifier = Type.String({ minLength: 1, maxLength: 200 });
const Country = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Two-letter country code' });
export const RuleCode = Type.Enum(RULE_CODES);
const RuleCodes = Type.Array(RuleCode, { description: 'Rule codes only (R-001 to R-009)' });
export const CaseStatus = Type.Enum([...OPEN_CASE_STATUSES, 'cleared', 'frozen'] as const);

/** metadata's bounds: what the keys need, with room, never a document store. */
export const METADATA_LIMITS = { max_depth: 8, max_bytes: 16 * 1024 };

export const AmlEventRequest = Type.Object(
  {
    user_id: UserId,
    event_type: Type.Enum(EVENT_TYPES),
    transaction_id: Identifier,
    amount_cents: Type.Integer({
      minimum: 0,
      maximum: 1e15,
      description: 'Minor units; 0 only for login and account_update',
    }),
    currency: CurrencyCode,
    payment_method: Type.Optional(Identifier),
    metadata: Type.Optional(
      Type.Object(
        {
          ip_country: Type.Optional(Country),
          card_country: Type.Optional(Country),
          session_id: Type.Optional(Identifier),
          payment_method_fingerprint: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 200,
              description:
                'An identifier of the funding instrument itself (a card or account token), the same for every user who uses it. R-006 links users by this alone; payment_method is a kind and links nobody',
            }),
          ),
          status: Type.Optional(
            Type.Enum(EVENT_OUTCOMES, {
              description:
                'The outcome: succeeded (the default), failed (declined) or pending. Velocity counts every attempt; the value rules count only succeeded money',
            }),
          ),
        },
        {
          additionalProperties: true,
          ...jsonLimits(METADATA_LIMITS),
          description: `Free-form context; at most ${METADATA_LIMITS.max_depth} levels deep and ${METADATA_LIMITS.max_bytes / 1024} KiB as JSON`,
        },
      ),
    ),
    // Events may arrive late (after a tenant's outage, or a year of history sent at onboarding so that R-008's
    // dormancy sees the last activity) and are judged in event time; older than a year is beyond any rule's use.
    occurred_at: ClientTimestamp(
      366 * 86_400,
      'when the transaction happened; the rules judge it in event time',
    ),
  },
  { additionalProperties: false },
);
export type AmlEventRequest = Static<typeof AmlEventRequest>;

export const EventAck = Type.Object({
  event_id: Type.String(),
  transaction_id: Type.String(),
  received_at: Timestamp,
  processing: Type.Union([Type.Literal('queued'), Type.Literal('duplicate_already_queued')]),
});

export const ScreenRequest = Type.Object(
  {
    user_id: UserId,
    withdrawal_id: Identifier,
    amount_cents: Type.Integer({ minimum: 1, maximum: 1e15 }),
    currency: CurrencyCode,
    payment_method: Identifier,
    destination_country: Type.String({ pattern: '^[A-Z]{2}$', description: 'Two-letter country code' }),
  },
  { additionalProperties: false },
);
export type ScreenRequest = Static<typeof ScreenRequest>;

/** allow: with rules_evaluated; hold: with case_id, user_message, estimated_review_time; reject: with case_id, user_message. */
export const ScreenResult = Type.Object({
  decision: Type.Union([Type.Literal('allow'), Type.Literal('hold'), Type.Literal('reject')]),
  user_id: Type.String(),
  withdrawal_id: Type.String(),
  rules_triggered: RuleCodes,
  risk_score: Type.Integer({ minimum: 0, maximum: 100 }),
  rules_evaluated: Type.Optional(RuleCodes),
  case_id: Type.Optional(Type.String()),
  user_message: Type.Optional(
    Type.String({ description: 'Generic wording that may be shown to the player' }),
  ),
  estimated_review_time: Type.Optional(Type.String()),
});

export const CasesQuery = Type.Object({ user_id: UserId });

export const CaseEntry = Type.Object({
  case_id: Type.String(),
  opened_at: Timestamp,
  status: CaseStatus,
  rules_triggered: RuleCodes,
  risk_score: Type.Integer(),
});

export const UserCases = Type.Object({
  user_id: Type.String(),
  open_cases: Type.Integer(),
  cases: Type.Array(CaseEntry),
});

// Back office: the only place rule descriptions, findings (context) and transactions appear.

export const StaffCase = Type.Object({
  case_id: Type.String(),
  tenant_id: Type.String(),
  user_id: Type.String(),
  status: CaseStatus,
  source: Type.Union([Type.Literal('realtime'), Type.Literal('async')]),
  origin: Type.Enum(CASE_ORIGINS, {
    description: 'async, screen_hold or screen_reject: decides which decisions the case takes',
  }),
  withdrawal_id: Type.Union([Type.String(), Type.Null()]),
  rules_triggered: RuleCodes,
  risk_score: Type.Integer(),
  rules: Type.Array(
    Type.Object({
      code: RuleCode,
      pattern: Type.String(),
      description: Type.String(),
      severity: Type.Integer(),
      mode: Type.String(),
      counts: Type.String({ description: 'attempts, or succeeded (only money that moved)' }),
    }),
  ),
  transaction_ids: Type.Array(Type.String()),
  context: Type.Array(
    Type.Object({
      rule_code: RuleCode,
      pattern_key: Type.String(),
      at: Type.String(),
      transaction_ids: Type.Array(Type.String()),
      details: Type.Unknown(),
    }),
  ),
  opened_at: Timestamp,
  updated_at: Timestamp,
  decided_at: NullableTimestamp,
  reviewer: Type.Union([Type.String(), Type.Null()]),
  decision_reason: Type.Union([Type.String(), Type.Null()]),
  /** opened_at + 48 hours (the AML review SLA). */
  due_at: Timestamp,
  reviewed_at: NullableTimestamp,
  sla_breached: Type.Boolean({
    description: 'Awaiting review at or past due_at, or reviewed at or after it',
  }),
  pending_proposal: Type.Optional(
    Type.Union([DecisionProposal, Type.Null()], {
      description: 'A freeze or escalation awaiting a second member of staff (four eyes)',
    }),
  ),
});

const StaffTransaction = Type.Object({
  event_id: Type.String(),
  user_id: Type.String(),
  event_type: Type.String(),
  transaction_id: Type.String(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  usd_cents: Type.Integer(),
  payment_method: Type.Union([Type.String(), Type.Null()]),
  fingerprint: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  metadata: Type.Unknown(),
  occurred_at: Timestamp,
  received_at: Timestamp,
});

const StaffScreen = Type.Object({
  withdrawal_id: Type.String(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  usd_cents: Type.Integer(),
  payment_method: Type.String(),
  destination_country: Type.String(),
  decision: Type.String(),
  risk_score: Type.Integer(),
  screened_at: Timestamp,
});

export const StaffCaseDetail = Type.Object({
  ...StaffCase.properties,
  transactions: Type.Array(StaffTransaction),
  screen: Type.Union([StaffScreen, Type.Null()]),
});

export const StaffCasesQuery = Type.Object({
  status: Type.Optional(CaseStatus),
  tenant_id: Type.Optional(Type.String()),
  user_id: Type.Optional(Type.String()),
  overdue: Type.Optional(
    Type.Boolean({ description: 'true: only cases awaiting review at or past their due time' }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page' })),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
});

export const StaffCasesPage = Type.Object({
  cases: Type.Array(StaffCase),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next page; null on the last page',
  }),
});

export const CaseParams = Type.Object({ case_id: Type.String() });

export const DecisionRequest = Type.Object(
  {
    action: Type.Enum(DECISION_ACTIONS),
    reason: Type.String({
      minLength: 1,
      maxLength: 2000,
      pattern: '\\S',
      description: 'Why; kept with the case and in the audit log',
    }),
  },
  { additionalProperties: false },
);

export const DeadLetter = Type.Object({
  dead_letter_id: Type.String(),
  event_id: Type.String(),
  tenant_id: Type.String(),
  attempts: Type.Integer(),
  last_error: Type.String(),
  dead_lettered_at: Timestamp,
  redriven_at: NullableTimestamp,
  redriven_by: Type.Union([Type.String(), Type.Null()]),
});

export const DeadLetterEntry = Type.Object({
  ...DeadLetter.properties,
  user_id: Type.String(),
  event_type: Type.String(),
  transaction_id: Type.String(),
  occurred_at: Timestamp,
});

export const DeadLettersQuery = Type.Object({
  tenant_id: Type.Optional(Type.String()),
  redriven: Type.Boolean({ default: false, description: 'true: the dead letters already re-driven' }),
  after: Type.Optional(
    Type.String({ maxLength: 200, description: 'The dead_letter_id of the last row of the previous page' }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
});

export const DeadLetterParams = Type.Object({ dead_letter_id: Type.String() });

export const RedriveRequest = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }),
  },
  { additionalProperties: false },
);

export const SettingsRequest = Type.Object(
  {
    r009_window_hours: Type.Integer({
      minimum: 1,
      maximum: 720,
      description: 'R-009 rolling window, 1 to 720 hours',
    }),
  },
  { additionalProperties: false },
);

export const AmlSettings = Type.Object({
  tenant_id: Type.String(),
  r009_window_hours: Type.Number(),
  r009_window_seconds: Type.Integer(),
});

/** aml.held, aml.cleared, aml.escalated and aml.account_frozen: a staff decision on a case (aml.events.ts). */
const AmlDecision = (description: string) =>
  Type.Object(
    {
      case_id: Type.String(),
      user_id: Type.String(),
      status: CaseStatus,
      withdrawal_id: Type.Union([Type.String(), Type.Null()], { description: 'null for an async case' }),
      rules_triggered: RuleCodes,
      reviewer: Type.String(),
    },
    { additionalProperties: false, description },
  );

/** Every event the AML area emits. Rule codes, scores and transaction ids only (tipping-off). */
export const AmlEvents = {
  'aml.flagged': Type.Object(
    {
      case_id: Type.String(),
      user_id: Type.String(),
      rules_triggered: RuleCodes,
      risk_score: Type.Integer({ minimum: 0, maximum: 100 }),
      recommended_action: Type.Enum(['review', 'hold_and_review', 'escalate'] as const),
      transactions_to_review: Type.Array(Type.String(), { description: 'Transaction ids' }),
    },
    { additionalProperties: false, description: 'An async rule tripped; case opened' },
  ),
  'aml.held': AmlDecision('Real-time hold confirmed by compliance; funds blocked'),
  'aml.cleared': AmlDecision('Case dismissed; release funds'),
  'aml.escalated': AmlDecision('Case requires SAR filing'),
  'aml.account_frozen': AmlDecision('Account suspended pending investigation'),
} satisfies EventSchemas;

declare module '../../platform/events.js' {
  interface EventCatalogue extends EventDataOf<typeof AmlEvents> {}
}
