import { Type, type Static } from 'typebox';
import type { EventDataOf, EventSchemas } from '../../platform/events.js';
import { ClientTimestamp, CurrencyCode, NullableTimestamp, Timestamp } from '../../platform/schemas.js';
import {
  FINANCIAL_CHECK_LEVELS,
  FINANCIAL_WINDOWS,
  INTERACTION_KINDS,
  INTERACTION_OUTCOMES,
  MARKER_CODES,
  MARKER_LEVELS,
  RISK_LEVELS,
} from './safer-gambling.markers.js';

/** Wire shapes of the safer-gambling area: each validates, types and documents (OpenAPI) one request or response. */
export const MarkerCode = Type.Enum(MARKER_CODES, { description: 'The marker (docs/safer-gambling.md)' });
export const RiskLevel = Type.Enum(RISK_LEVELS, {
  description:
    "The player's safer-gambling level: the highest of the active markers, high with three or more",
});

/** An active marker as a webhook names it. */
export const MarkerRef = Type.Object({
  code: MarkerCode,
  name: Type.String({ description: "The marker's name, e.g. Loss chasing" }),
  tripped_at: Type.String({ format: 'date-time', description: 'When it last tripped' }),
});

const Markers = Type.Array(MarkerRef, { description: 'The active markers' });
const UserId = Type.String({ description: "The tenant's own player identifier" });

export const SaferGamblingEvents = {
  'player.risk_changed': Type.Object(
    {
      user_id: UserId,
      risk_level: RiskLevel,
      previous_level: RiskLevel,
      markers: Markers,
    },
    { description: "A player's safer-gambling level changed (a marker tripped, lapsed, or was reviewed)" },
  ),
  'player.interaction_required': Type.Object(
    {
      user_id: UserId,
      due_at: Type.String({ format: 'date-time', description: 'Record an interaction before this time' }),
      markers: Markers,
    },
    { description: "The player's level calls for an interaction by the operator (the tenant's policy)" },
  ),
  'player.interaction_overdue': Type.Object(
    {
      user_id: UserId,
      due_at: Type.String({ format: 'date-time', description: 'When the interaction was due' }),
      markers: Markers,
    },
    {
      description:
        "No interaction was recorded within the policy's time after it was due; the service's staff are alerted",
    },
  ),
  'player.financial_check_required': Type.Object(
    {
      user_id: UserId,
      level: Type.Enum(FINANCIAL_CHECK_LEVELS, { description: 'light or enhanced' }),
      net_deposits_cents: Type.Integer({
        description: "Net deposits over the window, in the profile's currency",
      }),
      currency: Type.String({ description: "The financial profile's currency (GBP by default)" }),
      window: Type.Enum(FINANCIAL_WINDOWS, { description: 'The rolling window whose threshold was crossed' }),
    },
    {
      description:
        "The player's net deposits crossed a financial-risk check threshold of the tenant's profile",
    },
  ),
} satisfies EventSchemas;

declare module '../../platform/events.js' {
  interface EventCatalogue extends EventDataOf<typeof SaferGamblingEvents> {}
}

/** How long after an interaction the operator may still record it: as long as a marker stays active (30 days). */
export const INTERACTION_MAX_PAST_SECONDS = 30 * 86_400;
export const NOTES_MAX_LENGTH = 2_000;

export const PlayerParams = Type.Object({
  user_id: Type.String({ minLength: 1, maxLength: 200, description: "The tenant's own player identifier" }),
});
export type PlayerParams = Static<typeof PlayerParams>;

export const InteractionKind = Type.Enum(INTERACTION_KINDS, {
  description: 'What the operator did: message, email, call, limit_prompt, account_review',
});
export const InteractionOutcome = Type.Enum(INTERACTION_OUTCOMES, {
  description:
    'no_concern, limits_set, time_out, self_excluded, account_closed (each settles the due interaction and reviews the active markers); no_response (keeps the interaction due, reviews nothing); contested (settles it, keeps the markers, flags the player for the service staff)',
});
const InteractionId = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '^[A-Za-z0-9._:-]+$',
  description:
    "The operator's own id of the interaction (letters, digits, . _ : -): the same request again answers the stored one (200), another under it is 409 duplicate_interaction. Generated (sgi_...) when absent",
});

export const RecordInteractionRequest = Type.Object(
  {
    interaction_id: Type.Optional(InteractionId),
    kind: InteractionKind,
    outcome: InteractionOutcome,
    occurred_at: ClientTimestamp(INTERACTION_MAX_PAST_SECONDS, 'when the interaction took place'),
    notes: Type.Optional(
      Type.String({ maxLength: NOTES_MAX_LENGTH, description: "The operator's notes, kept as evidence" }),
    ),
  },
  { additionalProperties: false },
);
export type RecordInteractionRequest = Static<typeof RecordInteractionRequest>;

export const Interaction = Type.Object({
  interaction_id: Type.String(),
  user_id: Type.String(),
  kind: InteractionKind,
  outcome: InteractionOutcome,
  occurred_at: Timestamp,
  notes: Type.Union([Type.String(), Type.Null()]),
  recorded_at: Timestamp,
  reviewed_markers: Type.Array(Type.Object({ code: MarkerCode, measured_value: Type.Integer() }), {
    description: 'The markers it reviewed, each with the value measured when it was reviewed',
  }),
  settled_due_at: {
    ...NullableTimestamp,
    description: 'The due time of the interaction it settled; null when none was due or it kept it due',
  },
});
export type Interaction = Static<typeof Interaction>;

export const PlayerMarker = Type.Object({
  code: MarkerCode,
  name: Type.String(),
  level: Type.Enum(MARKER_LEVELS),
  status: Type.Enum(['active', 'reviewed'] as const, {
    description:
      'active: counts in the level; reviewed: an interaction reviewed it (quiet until review_quiet_until)',
  }),
  tripped_at: { ...Timestamp, description: 'When it last tripped' },
  first_tripped_at: Timestamp,
  measured_value: Type.Integer({ description: 'What it measured when it last tripped, in unit' }),
  threshold: Type.Integer({ description: 'The threshold it was measured against, in unit' }),
  unit: Type.String({ description: 'usd_cents, count, seconds, percent or multiple' }),
  active_until: NullableTimestamp,
  reviewed_at: NullableTimestamp,
  review_quiet_until: {
    ...NullableTimestamp,
    description: 'Until then it trips again only with a higher measured value than at its review',
  },
});

export const FinancialCheck = Type.Object({
  level: Type.Enum(FINANCIAL_CHECK_LEVELS),
  window: Type.Enum(FINANCIAL_WINDOWS),
  net_deposits_cents: Type.Integer(),
  currency: Type.String(),
  threshold_cents: Type.Integer(),
  called_at: Timestamp,
});

export const SaferGamblingView = Type.Object({
  user_id: Type.String(),
  risk_level: RiskLevel,
  markers: Type.Array(PlayerMarker, { description: 'Active markers, then reviewed ones, each by code' }),
  interaction_due_at: {
    ...NullableTimestamp,
    description: 'When an interaction is owed by; null when none is',
  },
  interaction_overdue: Type.Boolean({
    description: 'The owed interaction is overdue (player.interaction_overdue was sent)',
  }),
  contested: Type.Boolean({
    description: "An interaction's outcome was contested: the service's staff follow it up",
  }),
  interactions: Type.Array(Interaction, { description: 'Newest first, at most 100' }),
  financial_checks: Type.Array(FinancialCheck, { description: 'Called for, newest first, at most 100' }),
});
export type SaferGamblingView = Static<typeof SaferGamblingView>;

const ThresholdOverrides = Type.Record(Type.String(), Type.Record(Type.String(), Type.Number()), {
  description:
    'By marker code, by threshold name: a value within the bounds of docs/safer-gambling.md (e.g. {"SG-004": {"min_failed": 8}})',
});
const PolicyOverrides = Type.Object(
  {
    stop_marketing_from: Type.Optional(Type.Enum(RISK_LEVELS)),
    interaction_required_from: Type.Optional(Type.Enum(RISK_LEVELS)),
    interaction_due_hours: Type.Optional(Type.Number()),
    overdue_after_hours: Type.Optional(Type.Number()),
    stop_deposits_at_high: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    description: 'Over the default policy; each field absent keeps the default',
  },
);
// The response writes the currency as a plain string: the serializer knows no iso4217 format.
const financialProfileOverrides = (currency: typeof CurrencyCode) =>
  Type.Object(
    {
      currency: Type.Optional(currency),
      thresholds: Type.Optional(
        Type.Array(
          Type.Object(
            {
              level: Type.Enum(FINANCIAL_CHECK_LEVELS),
              window: Type.Enum(FINANCIAL_WINDOWS),
              amount_cents: Type.Integer({ minimum: 1 }),
            },
            { additionalProperties: false },
          ),
          { maxItems: 6 },
        ),
      ),
    },
    {
      additionalProperties: false,
      description: "Over the UK's profile (GBP 150 / 30 days, 1,000 / 24 h, 2,000 / 90 days)",
    },
  );

export const SaferGamblingSettingsRequest = Type.Object(
  {
    time_zone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'IANA name, e.g. Europe/London (SG-003 night)',
      }),
    ),
    marker_overrides: Type.Optional(ThresholdOverrides),
    policy: Type.Optional(PolicyOverrides),
    financial_profile: Type.Optional(financialProfileOverrides(CurrencyCode)),
  },
  { additionalProperties: false, description: 'Each field given replaces it; each absent keeps it' },
);
export type SaferGamblingSettingsRequest = Static<typeof SaferGamblingSettingsRequest>;

export const SaferGamblingSettings = Type.Object({
  tenant_id: Type.String(),
  time_zone: Type.String(),
  marker_overrides: ThresholdOverrides,
  policy: PolicyOverrides,
  financial_profile: financialProfileOverrides(Type.String()),
  in_force: Type.Object({
    thresholds: Type.Record(Type.String(), Type.Record(Type.String(), Type.Number()), {
      description: "Every marker's thresholds with the overrides applied",
    }),
    policy: Type.Object({
      stop_marketing_from: RiskLevel,
      interaction_required_from: RiskLevel,
      interaction_due_hours: Type.Number(),
      overdue_after_hours: Type.Number(),
      stop_deposits_at_high: Type.Boolean(),
    }),
    financial_profile: Type.Object({
      currency: Type.String(),
      thresholds: Type.Array(
        Type.Object({
          level: Type.Enum(FINANCIAL_CHECK_LEVELS),
          window: Type.Enum(FINANCIAL_WINDOWS),
          amount_cents: Type.Integer(),
        }),
      ),
    }),
  }),
  updated_at: NullableTimestamp,
  updated_by: Type.Union([Type.String(), Type.Null()]),
});
export type SaferGamblingSettings = Static<typeof SaferGamblingSettings>;
