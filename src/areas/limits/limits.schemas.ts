import { Type, type Static } from 'typebox';
import { CurrencyCode, Timestamp } from '../../platform/schemas.js';

export const LimitType = Type.Union(
  [Type.Literal('limit_daily'), Type.Literal('limit_weekly'), Type.Literal('limit_monthly')],
  { description: 'Rolling 24 hours, 7 days or 30 days' },
);
const UserId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The tenant's own player identifier",
});
const Cents = Type.Integer({ minimum: 1, maximum: 1e15, description: 'Minor currency units' });

export const SetLimitRequest = Type.Object(
  {
    user_id: UserId,
    limit_type: LimitType,
    amount_cents: Cents,
    currency: CurrencyCode,
    requested_at: Timestamp,
  },
  { additionalProperties: false },
);
export type SetLimitRequest = Static<typeof SetLimitRequest> & { requested_at: string };

export const DepositLimit = Type.Object({
  limit_id: Type.String(),
  user_id: Type.String(),
  limit_type: LimitType,
  amount_cents: Type.Integer({ description: 'Requested limit amount' }),
  currency: Type.String(),
  current_limit_cents: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Limit in force before the change; null when none was',
  }),
  is_increase: Type.Boolean(),
  cooloff_seconds: Type.Integer({ description: '0, 86400, 172800 or 604800' }),
  effective_from: Timestamp,
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('active'),
    Type.Literal('superseded'),
    Type.Literal('cancelled'),
  ]),
});

export const LimitView = Type.Object({
  ...DepositLimit.properties,
  spent_cents: Type.Integer({ description: 'Deposits in the rolling window ending now' }),
  remaining_cents: Type.Integer(),
  next_reset_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When the oldest deposit in the window leaves it',
  }),
  pending_change: Type.Union([DepositLimit, Type.Null()]),
});

export const ListLimitsQuery = Type.Object({ user_id: UserId });

export const CheckRequest = Type.Object(
  { user_id: UserId, amount_cents: Cents, currency: CurrencyCode },
  { additionalProperties: false },
);
export type CheckRequest = Static<typeof CheckRequest>;

export const CheckResult = Type.Object({
  allowed: Type.Boolean(),
  amount_cents: Type.Optional(Type.Integer()),
  would_remain_cents: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  active_limits: Type.Optional(Type.Array(LimitType)),
  reason: Type.Optional(Type.Literal('exceeds_limit')),
  breached_limit_type: Type.Optional(LimitType),
  limit_amount_cents: Type.Optional(Type.Integer()),
  already_spent_cents: Type.Optional(Type.Integer()),
  max_allowed_now_cents: Type.Optional(Type.Integer()),
  next_reset_at: Type.Optional(Timestamp),
  user_message: Type.Optional(Type.String({ description: 'Display verbatim' })),
});

export const CommitRequest = Type.Object(
  {
    user_id: UserId,
    transaction_id: Type.String({ minLength: 1, maxLength: 200 }),
    amount_cents: Cents,
    currency: CurrencyCode,
    committed_at: Timestamp,
  },
  { additionalProperties: false },
);
export type CommitRequest = Static<typeof CommitRequest> & { committed_at: string };

export const CommittedDeposit = Type.Object({
  transaction_id: Type.String(),
  user_id: Type.String(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  committed_at: Timestamp,
  recorded_at: Timestamp,
});

export const LimitParams = Type.Object({ id: Type.String() });
