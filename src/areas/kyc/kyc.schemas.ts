import { Type, type Static, type TSchema } from 'typebox';
import type { EventDataOf, EventSchemas } from '../../platform/events.js';
import { ClientTimestamp, CurrencyCode, NullableTimestamp, Timestamp } from '../../platform/schemas.js';

export const KycTier = Type.Union(
  [
    Type.Literal('tier_0'),
    Type.Literal('tier_1'),
    Type.Literal('tier_2'),
    Type.Literal('tier_3'),
    Type.Literal('tier_4'),
  ],
  { description: 'tier_0 to tier_4' },
);
export const KycStatus = Type.Union([
  Type.Literal('not_started'),
  Type.Literal('in_progress'),
  Type.Literal('pending_review'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
  Type.Literal('expired'),
]);
const UserId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The tenant's own player identifier",
});
const Cents = Type.Integer({ minimum: 1, maximum: 1e15, description: 'Minor currency units' });
const Documents = Type.Array(Type.String(), {
  description: 'What the vendor flow collects; empty on tier_0',
});

export const StartKycRequest = Type.Object(
  {
    user_id: UserId,
    email: Type.String({ format: 'email', maxLength: 320 }),
    phone: Type.String({ minLength: 3, maxLength: 50 }),
    withdrawal_amount_cents: Cents,
    currency: CurrencyCode,
    withdrawal_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Echoed by kyc.approved as release_withdrawal_id',
      }),
    ),
  },
  { additionalProperties: false },
);
export type StartKycRequest = Static<typeof StartKycRequest>;

/** Both answers of a start: the fast path (200) and a KYC check (201, or 200 when repeated while open). */
export const KycStartResult = Type.Object({
  kyc_check_id: Type.Union([Type.String(), Type.Null()], { description: 'null on the fast path' }),
  user_id: Type.String(),
  required_tier: KycTier,
  required_documents: Documents,
  vendor_access_token: Type.Optional(Type.String({ description: 'A secret: hand it only to the user' })),
  vendor_expires_in: Type.Optional(Type.Integer({ description: 'Seconds until the token expires' })),
  withdrawal_held: Type.Boolean(),
  estimated_clear_time: Type.Optional(Type.String()),
  withdrawal_remaining_cents: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description:
        'Fast path: what can still be withdrawn, in the request currency, before the next tier; null at tier_4',
    }),
  ),
  message: Type.Optional(Type.String()),
});

export const StatusQuery = Type.Object({ kyc_check_id: Type.String({ minLength: 1, maxLength: 100 }) });

export const KycCheckStatus = Type.Object({
  kyc_check_id: Type.String(),
  user_id: Type.String(),
  status: KycStatus,
  required_tier: KycTier,
  required_documents: Documents,
  withdrawal_held: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const TierQuery = Type.Object({ user_id: UserId });

export const KycTierRecord = Type.Object({
  user_id: Type.String(),
  verified_tier: KycTier,
  verified_at: NullableTimestamp,
  max_withdrawal_cents: Type.Union([Type.Integer(), Type.Null()], {
    description: 'USD cents the user can still withdraw before the next tier; null at tier_4',
  }),
  cumulative_withdrawn_cents: Type.Integer({ description: 'Lifetime cleared withdrawals, USD cents' }),
  next_tier_required_at_cents: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Lifetime total (USD cents) at which the next tier is required; null at tier_4',
  }),
});

export const ManualReviewRequest = Type.Object(
  {
    kyc_check_id: Type.String({ minLength: 1, maxLength: 100 }),
    decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
    reason: Type.String({
      minLength: 1,
      maxLength: 1000,
      pattern: '\\S',
      description: "Why, in the reviewer's words; required, kept with the check and in the audit log",
    }),
  },
  { additionalProperties: false },
);
export type ManualReviewRequest = Static<typeof ManualReviewRequest>;

/** The staff's decision from the review queue: the check is in the path, the reviewer is the session's. */
export const StaffManualReviewRequest = Type.Object(
  {
    decision: ManualReviewRequest.properties.decision,
    reason: ManualReviewRequest.properties.reason,
  },
  { additionalProperties: false },
);

export const WithdrawalCompletedRequest = Type.Object(
  {
    user_id: UserId,
    withdrawal_id: Type.String({ minLength: 1, maxLength: 200 }),
    amount_cents: Cents,
    currency: CurrencyCode,
    // No past bound: the lifetime total only grows, and refusing a late report would leave a player under-verified.
    completed_at: ClientTimestamp(
      null,
      'when the withdrawal cleared; a late report still counts toward the lifetime total',
    ),
  },
  { additionalProperties: false },
);
export type WithdrawalCompletedRequest = Static<typeof WithdrawalCompletedRequest>;

export const WithdrawalCompleted = Type.Object({
  withdrawal_id: Type.String(),
  user_id: Type.String(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  usd_cents: Type.Integer({ description: 'The amount in USD cents, as counted toward the tiers' }),
  cumulative_withdrawn_cents: Type.Integer({
    description: 'Lifetime total right after this withdrawal, USD cents',
  }),
  completed_at: Timestamp,
  recorded_at: Timestamp,
});

export const VendorTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const VendorFlowState = Type.Object({
  kyc_check_id: Type.String(),
  status: KycStatus,
  required_tier: KycTier,
  required_documents: Documents,
});

export const ReviewQueueQuery = Type.Object({
  status: Type.Optional(KycStatus),
  tenant_id: Type.Optional(Type.String({ maxLength: 64 })),
  overdue: Type.Optional(
    Type.Boolean({ description: 'true: in pending_review past due_at; false: all other checks' }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: 'next_cursor of the previous page' })),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
});
export type ReviewQueueQuery = Static<typeof ReviewQueueQuery>;

export const ReviewQueueEntry = Type.Object({
  kyc_check_id: Type.String(),
  tenant_id: Type.String(),
  user_id: Type.String(),
  status: KycStatus,
  required_tier: KycTier,
  required_documents: Documents,
  created_at: Timestamp,
  due_at: Type.Unsafe<Date | string>({
    type: 'string',
    format: 'date-time',
    description: '48 hours after the check entered pending_review',
  }),
  sla_breached: Type.Boolean({
    description: 'In pending_review at or past due_at, or decided at or after it',
  }),
  decided_at: NullableTimestamp,
  decided_by: Type.Union([Type.String(), Type.Null()]),
  decision_reason: Type.Union([Type.String(), Type.Null()]),
});

export const ReviewQueuePage = Type.Object({
  reviews: Type.Array(ReviewQueueEntry),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null: this page is the last' }),
});

/** What every KYC event but kyc.approved carries: the check as the tenant knows it. */
const CheckState = {
  kyc_check_id: Type.String(),
  user_id: Type.String(),
  status: KycStatus,
  required_tier: KycTier,
};
const NullableId = Type.Union([Type.String(), Type.Null()]);
const kycEvent = <Extra extends Record<string, TSchema>>(description: string, extra: Extra) =>
  Type.Object({ ...CheckState, ...extra }, { additionalProperties: false, description });

/** Every event the KYC area emits, one per move of a check (service/transitions.ts). */
export const KycEvents = {
  'kyc.started': kycEvent('User initiated the vendor flow', {}),
  'kyc.submitted': kycEvent('Documents uploaded, awaiting review', { required_documents: Documents }),
  'kyc.approved': Type.Object(
    {
      kyc_check_id: Type.String(),
      user_id: Type.String(),
      verified_tier: KycTier,
      release_withdrawal_id: NullableId,
    },
    { additionalProperties: false, description: 'Tier achieved; release the held withdrawal' },
  ),
  'kyc.tier_upgraded': kycEvent('User verified at a higher tier', {
    previous_tier: KycTier,
    verified_tier: KycTier,
    verified_at: Type.String({ format: 'date-time' }),
  }),
  'kyc.rejected': kycEvent('Verification failed; keep the withdrawal blocked', { withdrawal_id: NullableId }),
  'kyc.expired': kycEvent('Abandoned check; withdrawal cancelled', { cancelled_withdrawal_id: NullableId }),
} satisfies EventSchemas;

declare module '../../platform/events.js' {
  interface EventCatalogue extends EventDataOf<typeof KycEvents> {}
}
