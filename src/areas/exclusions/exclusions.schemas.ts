import { Type, type Static } from 'typebox';
import type { EventDataOf, EventSchemas } from '../../platform/events.js';
import { ClientTimestamp, DecisionProposal, NullableTimestamp, Timestamp } from '../../platform/schemas.js';
import { DURATIONS, SOURCE_NAMES } from './exclusions.rules.js';

/** Wire shapes of the self-exclusion area: each validates, types and documents (OpenAPI) one request or response. */
export const Duration = Type.Enum(DURATIONS, { description: 'How long the exclusion lasts' });
export type Duration = Static<typeof Duration>;

/** How a matched row relates to the caller: its own registration, or the national register (regulator list). */
export const Source = Type.Enum([SOURCE_NAMES.own, SOURCE_NAMES.other], {
  description:
    "operator: the caller's own registration; regulator_comprehensive: the regulator's national register",
});
export type Source = Static<typeof Source>;

const Email = Type.String({ maxLength: 320, description: 'Matched case- and whitespace-insensitively' });
const Phone = Type.String({
  maxLength: 64,
  description: 'International form with a leading +; stored as E.164',
});

export const CreateExclusionRequest = Type.Object(
  {
    user_id: Type.String({ minLength: 1, maxLength: 200, description: "The tenant's own player identifier" }),
    duration: Duration,
    email: Type.Optional(Email),
    phone: Type.Optional(Phone),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 200, default: 'self_initiated' })),
    // Context only (the exclusion runs from receipt); older than the longest timed duration (1 year) is a mistake.
    initiated_at: Type.Optional(ClientTimestamp(366 * 86_400, 'when the player asked to be excluded')),
  },
  {
    additionalProperties: false,
    // At least one of email and phone: they are what the live check matches on.
    anyOf: [{ required: ['email'] }, { required: ['phone'] }],
  },
);
export type CreateExclusionRequest = Static<typeof CreateExclusionRequest>;

export const Exclusion = Type.Object({
  exclusion_id: Type.String(),
  user_id: Type.String(),
  duration: Duration,
  effective_from: Timestamp,
  expires_at: NullableTimestamp,
  is_permanent: Type.Boolean(),
  regulator_propagated: Type.Boolean({
    description:
      'Whether the exclusion was propagated to the regulator: false until the regulator has acknowledged the daily export that holds it. It is matched for every tenant from the 201 either way.',
  }),
});
export type Exclusion = Static<typeof Exclusion>;

export const CheckQuery = Type.Object({
  email: Type.Optional(Email),
  phone: Type.Optional(Phone),
  include_regulator: Type.Boolean({
    default: true,
    description: 'false skips regulator_comprehensive rows. Diagnostics only; never disable in production.',
  }),
});
export type CheckQuery = Static<typeof CheckQuery>;

/** The spec's Exclusion check result: only is_excluded when nothing matches. */
export const CheckResult = Type.Object({
  is_excluded: Type.Boolean(),
  exclusion_id: Type.Optional(Type.String()),
  duration: Type.Optional(Duration),
  expires_at: Type.Optional(NullableTimestamp),
  is_permanent: Type.Optional(Type.Boolean()),
  source: Type.Optional(Source),
});
export type CheckResult = Static<typeof CheckResult>;

export const CheckBatchRequest = Type.Object(
  {
    contacts: Type.Array(
      Type.Object(
        {
          reference: Type.String({
            minLength: 1,
            maxLength: 200,
            description:
              "The tenant's own reference for the contact (a player id, say), echoed in its result",
          }),
          email: Type.Optional(Email),
          phone: Type.Optional(Phone),
        },
        { additionalProperties: false, anyOf: [{ required: ['email'] }, { required: ['phone'] }] },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
    include_regulator: Type.Boolean({
      default: true,
      description: 'As in the live check: false only for sandbox admin keys.',
    }),
  },
  { additionalProperties: false },
);
export type CheckBatchRequest = Static<typeof CheckBatchRequest>;

export const CheckBatchResult = Type.Object({
  results: Type.Array(
    Type.Object({
      reference: Type.String(),
      ...CheckResult.properties,
    }),
    { description: 'One per contact, in the order sent: the live check result for it' },
  ),
});
export type CheckBatchResult = Static<typeof CheckBatchResult>;

export const SnapshotQuery = Type.Object({
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: 'Opaque; next_cursor of the previous page' }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
});
export type SnapshotQuery = Static<typeof SnapshotQuery>;

export const SnapshotRow = Type.Object({
  exclusion_id: Type.String(),
  user_id: Type.Union([Type.String(), Type.Null()], { description: "Only on the tenant's own rows" }),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  duration: Duration,
  effective_from: Timestamp,
  expires_at: NullableTimestamp,
  is_permanent: Type.Boolean(),
  regulator_propagated: Type.Boolean({
    description:
      'Whether the regulator has acknowledged an export holding the row (always true on its own list)',
  }),
  source: Source,
});
export type SnapshotRow = Static<typeof SnapshotRow>;

export const SnapshotPage = Type.Object({
  exclusions: Type.Array(SnapshotRow),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type SnapshotPage = Static<typeof SnapshotPage>;

export const RegulatorEntry = Type.Object(
  {
    email: Type.Optional(Email),
    phone: Type.Optional(Phone),
    duration: Duration,
    environment: Type.Enum(['sandbox', 'live'] as const),
  },
  { additionalProperties: false, anyOf: [{ required: ['email'] }, { required: ['phone'] }] },
);
export type RegulatorEntry = Static<typeof RegulatorEntry>;

/** The comprehensive form: one entry on its own, or a batch of 1 to 1000 under `entries`. */
export const RegulatorRequest = Type.Union([
  RegulatorEntry,
  Type.Object(
    { entries: Type.Array(RegulatorEntry, { minItems: 1, maxItems: 1000 }) },
    { additionalProperties: false },
  ),
]);
export type RegulatorRequest = Static<typeof RegulatorRequest>;

export const RegulatorResult = Type.Object({
  exclusions: Type.Array(
    Type.Object({
      exclusion_id: Type.String(),
      created: Type.Boolean({ description: 'false when an identical master-list row was already active' }),
    }),
  ),
});
export type RegulatorResult = Static<typeof RegulatorResult>;

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** A register row as the service's staff see it (back office only: it carries other tenants' contacts). */
export const StaffExclusion = Type.Object({
  exclusion_id: Type.String(),
  environment: Type.Enum(['sandbox', 'live'] as const),
  origin: Type.Enum(['operator', 'regulator'] as const),
  tenant_id: NullableString,
  user_id: NullableString,
  email: NullableString,
  phone: NullableString,
  duration: Duration,
  is_permanent: Type.Boolean(),
  status: Type.Enum(['active', 'expired', 'voided'] as const),
  effective_from: Timestamp,
  expires_at: NullableTimestamp,
  voided_at: NullableTimestamp,
  void_reason: NullableString,
  voided_by: NullableString,
  void_confirmed_by: NullableString,
  pending_proposal: Type.Union([DecisionProposal, Type.Null()], {
    description: "A permanent row's proposed void, awaiting a second member of staff",
  }),
});
export type StaffExclusion = Static<typeof StaffExclusion>;

export const VoidRequest = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'Why the row was registered in error',
    }),
  },
  { additionalProperties: false },
);

const EventTimestamp = Type.String({ format: 'date-time' });
const NullableEventTimestamp = Type.Union([EventTimestamp, Type.Null()]);

/** exclusion.created, .permanent and .regulator_synced: the spec's data of exclusion.created. */
const RegisteredExclusion = (description: string) =>
  Type.Object(
    {
      exclusion_id: Type.String(),
      user_email: Type.Union([Type.String(), Type.Null()], {
        description:
          "null when registered without one, or for another operator's row whose email this tenant never showed",
      }),
      user_phone: Type.Union([Type.String(), Type.Null()]),
      duration: Duration,
      is_permanent: Type.Boolean(),
      expires_at: NullableEventTimestamp,
      source: Source,
    },
    { additionalProperties: false, description },
  );

/** Every event the self-exclusion area emits, with its data (exclusions.events.ts). */
export const ExclusionEvents = {
  'exclusion.created': RegisteredExclusion('A user is excluded, locally or via another licensed operator'),
  'exclusion.permanent': RegisteredExclusion('A permanent exclusion is registered'),
  'exclusion.regulator_synced': RegisteredExclusion(
    "A user is excluded via the regulator's comprehensive form",
  ),
  'exclusion.expired': Type.Object(
    {
      exclusion_id: Type.String(),
      user_id: Type.Union([Type.String(), Type.Null()], { description: "null for another operator's row" }),
      duration: Duration,
      expires_at: NullableEventTimestamp,
      source: Source,
    },
    { additionalProperties: false, description: 'A timed exclusion auto-expires' },
  ),
  'exclusion.voided': Type.Object(
    {
      exclusion_id: Type.String(),
      user_id: Type.Union([Type.String(), Type.Null()], { description: "null for another operator's row" }),
      duration: Duration,
      is_permanent: Type.Boolean(),
      voided_at: NullableEventTimestamp,
      source: Source,
    },
    {
      additionalProperties: false,
      description: 'An exclusion registered in error no longer matches; stop enforcing it',
    },
  ),
} satisfies EventSchemas;

declare module '../../platform/events.js' {
  interface EventCatalogue extends EventDataOf<typeof ExclusionEvents> {}
}
