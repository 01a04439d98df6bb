import { Type, type Static } from 'typebox';
import { ClientTimestamp, CurrencyCode, Timestamp } from '../../platform/schemas.js';
import { LIMIT_TYPES } from './limits.rules.js';

/** Wire shapes of the deposit-limits area: each validates, types and documents (OpenAPI) one request or response. */
export const LimitType = Type.Enum(LIMIT_TYPES, {
  description: 'limit_daily: rolling 24 hours; limit_weekly: rolling 7 days; limit_monthly: rolling 30 days',
});
export type LimitType = Static<typeof LimitType>;
const UserId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The tenant's own player identifier",
});
const Cents = Type.Integer({
  minimum: 1,
  maximum: 1e15,
  description: 'A positive integer of minor currency units',
});

export const SetLimitRequest = Type.Object(
  {
    user_id: UserId,
    limit_type: LimitType,
    amount_cents: Cents,
    currency: CurrencyCode,
    // The cool-off counts from receipt, so this is the record of when the player asked: relayed at once, or after
    // an outage of the tenant's link; a day is room for that, anything older is a replay or a wrong clock.
    requested_at: ClientTimestamp(
      86_400,
      'when the player asked for the change (the cool-off counts from receipt, not from this)',
    ),
  },
  { additionalProperties: false },
);
export type SetLimitRequest = Static<typeof SetLimitRequest>;

export const DepositLimitRecord = Type.Object({
  limit_id: Type.String(),
  user_id: Type.String(),
  limit_type: LimitType,
  amount_cents: Type.Integer({ description: 'Requested limit amount' }),
  currency: Type.String(),
  current_limit_cents: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Limit in force before the change; null for a first-time set',
  }),
  is_increase: Type.Boolean(),
  cooloff_seconds: Type.Integer({ description: '0, 86400, 172800 or 604800' }),
  effective_from: Timestamp,
  status: Type.Enum(['pending', 'active', 'superseded', 'cancelled'] as const, {
    description:
      'pending: cooling off; active: in force; superseded: replaced by a later change; cancelled: withdrawn',
  }),
});
export type DepositLimitRecord = Static<typeof DepositLimitRecord>;

export const LimitView = Type.Object({
  ...DepositLimitRecord.properties,
  spent_cents: Type.Integer({ description: 'Deposits committed in the rolling window ending now' }),
  held_cents: Type.Integer({
    description: 'Held by allowed checks whose deposits are not committed, released or lapsed yet',
  }),
  remaining_cents: Type.Integer({
    description: 'What may still be deposited under this limit now (the limit less spent and held)',
  }),
  next_reset_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When the oldest deposit in the window leaves it; null when the window is empty',
  }),
  pending_change: Type.Union([DepositLimitRecord, Type.Null()], {
    description: 'The increase cooling off for this limit type, if any',
  }),
});

export const ListLimitsQuery = Type.Object({ user_id: UserId });
export const LimitList = Type.Object({ user_id: Type.String(), limits: Type.Array(LimitView) });

export const CheckRequest = Type.Object(
  { user_id: UserId, amount_cents: Cents, currency: CurrencyCode },
  { additionalProperties: false },
);
export type CheckRequest = Static<typeof CheckRequest>;

/** The spec's Limit check result: the allowed fields, or the rejected ones. */
export const CheckResult = Type.Object({
  allowed: Type.Boolean(),
  amount_cents: Type.Optional(Type.Integer({ description: 'Allowed: the checked amount' })),
  would_remain_cents: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description:
        'Allowed: the least left under any limit after this deposit; null when no limit is in force',
    }),
  ),
  active_limits: Type.Optional(Type.Array(LimitType, { description: 'Allowed: the limit types in force' })),
  reason: Type.Optional(Type.Literal('exceeds_limit')),
  breached_limit_type: Type.Optional(LimitType),
  limit_amount_cents: Type.Optional(Type.Integer()),
  already_spent_cents: Type.Optional(Type.Integer()),
  max_allowed_now_cents: Type.Optional(
    Type.Integer({ description: 'Rejected: the most that fits under every limit now' }),
  ),
  next_reset_at: Type.Optional(
    Type.Unsafe<Date | string>({
      type: 'string',
      format: 'date-time',
      description: 'Rejected: the earliest time the requested amount fits, as old deposits leave the window',
    }),
  ),
  user_message: Type.Optional(Type.String({ description: 'Rejected: plain language, display verbatim' })),
});
export type CheckResult = Static<typeof CheckResult>;

export const CommitRequest = Type.Object(
  {
    user_id: UserId,
    transaction_id: Type.String({ minLength: 1, maxLength: 200 }),
    amount_cents: Cents,
    currency: CurrencyCode,
    // A deposit older than the longest window (limit_monthly, 30 days) would count toward no limit.
    committed_at: ClientTimestamp(
      30 * 86_400,
      'when the deposit went through, which the windows sum by; 30 days is the longest window',
    ),
  },
  { additionalProperties: false },
);
export type CommitRequest = Static<typeof CommitRequest>;

export const CommittedDeposit = Type.Object({
  transaction_id: Type.String(),
  user_id: Type.String(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  committed_at: Timestamp,
  recorded_at: Timestamp,
});

export const ReleaseRequest = Type.Object(
  {
    user_id: UserId,
    transaction_id: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The tenant's id of the deposit that failed or was abandoned",
    }),
    amount_cents: Cents,
    currency: CurrencyCode,
  },
  { additionalProperties: false },
);
export type ReleaseRequest = Static<typeof ReleaseRequest>;

export const ReleasedDeposit = Type.Object({
  transaction_id: Type.String(),
  user_id: Type.String(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  reservation_released: Type.Boolean({
    description:
      'Whether a live hold of this amount was freed (false: none was held, it had lapsed or was consumed)',
  }),
  released_at: Timestamp,
});

export const LimitParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
