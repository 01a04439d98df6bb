import { Type, type Static } from 'typebox';
import { Timestamp } from '../../platform/schemas.js';

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

export const SanctionsCaseView = Type.Object({
  case_id: Type.String(),
  tenant_id: Type.String(),
  screen_id: Type.String(),
  user_id: Type.String(),
  status: CaseStatus,
  trigger: Type.String(),
  highest_match_score: Type.Number(),
  matches: Type.Array(
    Type.Object({ list: Type.String(), entity_id: Type.String(), name: Type.String(), score: Type.Number() }),
  ),
  opened_at: Timestamp,
  decided_at: Type.Union([Timestamp, Type.Null()]),
  reviewer: Type.Union([Type.String(), Type.Null()]),
});

export const DecisionRequest = Type.Object(
  {
    decision: Type.Union([Type.Literal('cleared'), Type.Literal('confirmed')]),
    reviewer: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

export const CasesQuery = Type.Object({
  status: Type.Optional(CaseStatus),
  tenant_id: Type.Optional(Type.String()),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
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
