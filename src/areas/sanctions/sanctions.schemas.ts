import { Type, type Static } from 'typebox';
import type { EventDataOf, EventSchemas } from '../../platform/events.js';
import { DecisionProposal, Timestamp } from '../../platform/schemas.js';

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

export const ScreenRequest = Type.Object(
  {
    user_id: Type.String({ minLength: 1, maxLength: 200, description: "The tenant's own player identifier" }),
    first_name: Name,
    last_name: Name,
    date_of_birth: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
    nationality: Type.String({ pattern: '^[A-Z]{2}$', description: 'Two-letter country code' }),
    email: Type.String({ format: 'email', maxLength: 320 }),
  },
  { additionalProperties: false },
);
export type ScreenRequest = Static<typeof ScreenRequest>;

export const ScreeningStatus = Type.Union([
  Type.Literal('clear'),
  Type.Literal('hit_review_pending'),
  Type.Literal('cleared'),
  Type.Literal('confirmed'),
]);

/** Clear shape, or hit shape with the hit-only fields. Matched entities never appear. */
export const Screening = Type.Object({
  screen_id: Type.String(),
  user_id: Type.String(),
  status: ScreeningStatus,
  checked_at: Timestamp,
  transactions_held: Type.Boolean(),
  match_count: Type.Optional(Type.Integer()),
  highest_match_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  case_id: Type.Optional(Type.String()),
  signup_allowed: Type.Optional(Type.Boolean()),
  estimated_review_time: Type.Optional(Type.String()),
});
export type Screening = Static<typeof Screening>;

export const StatusQuery = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 200 }) });

const CaseStatus = Type.Union([
  Type.Literal('hit_review_pending'),
  Type.Literal('cleared'),
  Type.Literal('confirmed'),
]);

/** A matched list entry with the production matcher's evidence (the sandbox stub gives the first four only). */
const CaseMatch = Type.Object({
  list: Type.String(),
  entity_id: Type.String({ description: "The list's own id of the entity" }),
  name: Type.String({ description: 'The name that matched, as the list prints it' }),
  score: Type.Number({ description: '0–1, the same meaning on every list' }),
  list_published_on: Type.Optional(Type.String()),
  entity_type: Type.Optional(Type.String()),
  primary_name: Type.Optional(Type.String()),
  programmes: Type.Optional(Type.Array(Type.String())),
  matched_name_quality: Type.Optional(Type.String({ description: 'primary, strong or weak' })),
  matched_name_non_latin: Type.Optional(Type.Boolean()),
  name_score: Type.Optional(Type.Number({ description: 'The name comparison alone' })),
  date_of_birth: Type.Optional(
    Type.String({ description: 'exact, same_year, in_range, near, conflict, not_listed or not_given' }),
  ),
  nationality: Type.Optional(Type.String({ description: 'match, conflict, not_listed or not_given' })),
  weak_alias_capped: Type.Optional(Type.Boolean()),
});

export const ListVersion = Type.Object({
  published_on: Type.String(),
  format: Type.String(),
  files: Type.Array(Type.String()),
});

export const DismissalView = Type.Object({
  dismissal_id: Type.String(),
  tenant_id: Type.String(),
  user_id: Type.String(),
  case_id: Type.String({ description: 'The case cleared as a false positive' }),
  list: Type.String(),
  entity_id: Type.String(),
  entity_name: Type.String({ description: 'The name that matched' }),
  score: Type.Number({ description: 'The match score when dismissed' }),
  content_remembered: Type.Boolean({
    description: "false: recorded before the entity's content was remembered; matched by the entity alone",
  }),
  dismissed_at: Timestamp,
  dismissed_by: Type.Union([Type.String(), Type.Null()], { description: 'staff_id of the reviewer' }),
  in_force: Type.Boolean(),
  ended_at: Type.Union([Timestamp, Type.Null()]),
  ended_by: Type.Union([Type.String(), Type.Null()]),
  end_reason: Type.Union([Type.String(), Type.Null()], {
    description: '"withdrawn: <reason>", or "superseded by <case_id>" when a later dismissal replaced it',
  }),
});

export const Dismissals = Type.Object({
  dismissals: Type.Array(DismissalView, { description: 'In force first, newest first' }),
});

export const WithdrawDismissalRequest = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }) },
  { additionalProperties: false },
);

const ListChange = Type.Object({
  version_id: Type.String(),
  list: Type.String(),
  published_on: Type.String(),
  accepted_at: Type.String({ format: 'date-time' }),
  entities: Type.Array(
    Type.Object({
      entity_id: Type.String(),
      change: Type.Union([Type.Literal('added'), Type.Literal('changed')]),
    }),
  ),
});

export const SanctionsCaseView = Type.Object({
  case_id: Type.String(),
  tenant_id: Type.String(),
  screen_id: Type.String(),
  user_id: Type.String(),
  status: CaseStatus,
  trigger: Type.Union([Type.Literal('signup'), Type.Literal('rescreen'), Type.Literal('list_update')]),
  list_change: Type.Union([ListChange, Type.Null()], {
    description: 'list_update: the list version whose added or changed entities brought the case',
  }),
  delisted: Type.Optional(
    Type.Array(
      Type.Object({
        list: Type.String(),
        entity_id: Type.String(),
        version_id: Type.String(),
        published_on: Type.String(),
        accepted_at: Timestamp,
      }),
      {
        description:
          'Matched entities a later list version removed: staff decide; nothing is cleared by itself',
      },
    ),
  ),
  earlier_dismissals: Type.Optional(
    Type.Array(DismissalView, {
      description: 'Dismissals of the same player and entity before this case opened (raised again)',
    }),
  ),
  highest_match_score: Type.Number(),
  matches: Type.Array(CaseMatch),
  list_versions: Type.Record(Type.String(), ListVersion, {
    description: 'The publication of each list the matches came from',
  }),
  opened_at: Timestamp,
  due_at: Type.Unsafe<Date | string>({
    type: 'string',
    format: 'date-time',
    description: 'The review SLA: 48 hours from opening',
  }),
  sla_breached: Type.Boolean({
    description: 'Awaiting review at or past due_at, or decided at or after it',
  }),
  decided_at: Type.Union([Timestamp, Type.Null()]),
  reviewer: Type.Union([Type.String(), Type.Null()]),
  decision_reason: Type.Union([Type.String(), Type.Null()]),
  pending_proposal: Type.Optional(
    Type.Union([DecisionProposal, Type.Null()], {
      description: 'A confirmation awaiting a second member of staff (four eyes)',
    }),
  ),
});

export const DecisionRequest = Type.Object(
  {
    decision: Type.Union([Type.Literal('cleared'), Type.Literal('confirmed')]),
    reason: Type.String({
      minLength: 1,
      maxLength: 2000,
      pattern: '\\S',
      description: "Why, in the reviewer's words; kept in the audit log",
    }),
  },
  { additionalProperties: false },
);
export type DecisionRequest = Static<typeof DecisionRequest>;

export const CasesQuery = Type.Object({
  status: Type.Optional(CaseStatus),
  tenant_id: Type.Optional(Type.String()),
  overdue: Type.Optional(
    Type.Boolean({ description: 'true: awaiting review past due_at; false: all other cases' }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: 'next_cursor of the previous page' })),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
});
export type CasesQuery = Static<typeof CasesQuery>;

export const CasesPage = Type.Object({
  cases: Type.Array(SanctionsCaseView),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null: this page is the last' }),
});

/** Without tenant_id: every tenant. */
export const RescreenRequest = Type.Object(
  { tenant_id: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export const RescreenResult = Type.Object({
  screened: Type.Integer({ description: 'clear and cleared users screened again' }),
  new_hits: Type.Integer({ description: 'users moved to hit_review_pending (each with sanctions.hit)' }),
  skipped: Type.Integer({ description: 'users of live tenants whose production matcher is unavailable' }),
});

export const RescreenRun = Type.Object({
  quarter: Type.String({ description: 'The calendar quarter, for example 2027-Q1' }),
  started_at: Timestamp,
  total: Type.Integer({ description: 'clear and cleared users when the run started' }),
  screened: Type.Integer(),
  new_hits: Type.Integer(),
  skipped: Type.Integer({ description: 'users of live tenants whose production matcher is unavailable' }),
  finished_at: Type.Union([Timestamp, Type.Null()]),
});
export const RescreenRuns = Type.Object({ runs: Type.Array(RescreenRun, { description: 'Newest first' }) });

export const ScreenSubjectParams = Type.Object({
  tenant_id: Type.String({ minLength: 1, maxLength: 64 }),
  user_id: Type.String({ minLength: 1, maxLength: 200 }),
});

/** One user re-screened by the staff, optionally with a corrected name, date of birth or nationality. */
export const RescreenUserRequest = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }),
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Name),
    date_of_birth: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD' })),
    nationality: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
  },
  { additionalProperties: false },
);
export type RescreenUserRequest = Static<typeof RescreenUserRequest>;

/** sanctions.cleared exactly as the spec has it; sanctions.confirmed shares it. */
const SanctionsDecision = {
  case_id: Type.String(),
  user_id: Type.String(),
  reviewer: Type.String(),
  transactions_held: Type.Boolean(),
};

/** Every event the sanctions area emits (sanctions.events.ts). None names a list or a matched entity. */
export const SanctionsEvents = {
  'sanctions.hit': Type.Object(
    {
      screen_id: Type.String(),
      case_id: Type.Union([Type.String(), Type.Null()]),
      user_id: Type.String(),
      status: ScreeningStatus,
      match_count: Type.Integer(),
      highest_match_score: Type.Number({ minimum: 0, maximum: 1 }),
      transactions_held: Type.Literal(true),
      signup_allowed: Type.Literal(true),
    },
    { additionalProperties: false, description: 'Screening hit; transactions held' },
  ),
  'sanctions.cleared': Type.Object(SanctionsDecision, {
    additionalProperties: false,
    description: 'Reviewer dismissed the hit; resume transactions',
  }),
  'sanctions.confirmed': Type.Object(SanctionsDecision, {
    additionalProperties: false,
    description: 'Reviewer confirmed; terminate account, freeze funds',
  }),
  'sanctions.account_frozen': Type.Object(
    { ...SanctionsDecision, funds_frozen: Type.Literal(true) },
    { additionalProperties: false, description: 'Sent alongside sanctions.confirmed as a freeze signal' },
  ),
} satisfies EventSchemas;

declare module '../../platform/events.js' {
  interface EventCatalogue extends EventDataOf<typeof SanctionsEvents> {}
}
