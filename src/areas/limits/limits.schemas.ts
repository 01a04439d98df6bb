import { Type, type Static } from 'typebox';
import type { EventDataOf, EventSchemas } from '../../platform/events.js';
import { ClientTimestamp, CurrencyCode, Timestamp } from '../../platform/schemas.js';
import { LIMIT_KINDS, LIMIT_TYPES, WINDOW_TYPES } from './limits.rules.js';

/** Wire shapes of the limits area: each validates, types and documents (OpenAPI) one request or response. */
export const WindowType = Type.Enum(WINDOW_TYPES, {
  description: 'limit_daily: rolling 24 hours; limit_weekly: rolling 7 days; limit_monthly: rolling 30 days',
});
export type WindowType = Static<typeof WindowType>;
export const LimitType = Type.Enum(LIMIT_TYPES, {
  description:
    'limit_daily: rolling 24 hours; limit_weekly: rolling 7 days; limit_monthly: rolling 30 days; limit_session: the longest single session (play_time only)',
});
export type LimitType = Static<typeof LimitType>;
export const LimitKind = Type.Enum(LIMIT_KINDS, {
  description:
    'deposit (the default): deposits; loss: net loss, stakes less payouts; wager: total stakes; play_time: time played, in seconds',
});
export type LimitKind = Static<typeof LimitKind>;
export const UserId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The tenant's own player identifier",
});
const Cents = Type.Integer({
  minimum: 1,
  maximum: 1e15,
  description: 'A positive integer of minor currency units',
});
const Seconds = Type.Integer({ minimum: 1, maximum: 1e9, description: 'A positive number of seconds' });

/** The spec's request, with limit_kind; a money kind takes amount_cents and currency, play_time amount_seconds. */
export const SetLimitRequest = Type.Object(
  {
    user_id: UserId,
    limit_kind: Type.Optional(LimitKind),
    limit_type: LimitType,
    amount_cents: Type.Optional({ ...Cents, description: 'Required for deposit, loss and wager limits' }),
    amount_seconds: Type.Optional({ ...Seconds, description: 'Required for a play_time limit' }),
    currency: Type.Optional({ ...CurrencyCode, description: 'Required for deposit, loss and wager limits' }),
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
  limit_type: WindowType,
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

/**
 * A loss, wager or play_time limit as the API returns it: limit_kind, and for play_time seconds in place of the
 * cents fields and no currency.
 */
export const KindLimitRecord = Type.Object({
  limit_id: Type.String(),
  user_id: Type.String(),
  limit_kind: Type.Enum(['loss', 'wager', 'play_time'] as const),
  limit_type: LimitType,
  amount_cents: Type.Optional(Type.Integer({ description: 'Requested limit amount (loss, wager)' })),
  currency: Type.Optional(Type.String()),
  current_limit_cents: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description: 'Limit in force before the change; null for a first-time set (loss, wager)',
    }),
  ),
  amount_seconds: Type.Optional(Type.Integer({ description: 'Requested limit (play_time)' })),
  current_limit_seconds: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description: 'Limit in force before the change; null for a first-time set (play_time)',
    }),
  ),
  is_increase: DepositLimitRecord.properties.is_increase,
  cooloff_seconds: DepositLimitRecord.properties.cooloff_seconds,
  effective_from: Timestamp,
  status: DepositLimitRecord.properties.status,
});

export type KindLimitRecord = Static<typeof KindLimitRecord>;

/**
 * A limit of any kind: a deposit limit's is exactly the spec's record, in its order (the kinds' shape, which needs
 * limit_kind, is tried first).
 */
export const LimitRecord = Type.Union([
  KindLimitRecord,
  { ...DepositLimitRecord, additionalProperties: false },
]);
export type LimitRecord = Static<typeof LimitRecord>;

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

/** A loss, wager or play_time limit with its use so far: money kinds in cents, play_time in seconds. */
const KindUseView = Type.Object({
  ...KindLimitRecord.properties,
  spent_cents: Type.Optional(
    Type.Integer({
      description: 'In the rolling window ending now: stakes (wager), or net loss (loss, never below 0)',
    }),
  ),
  held_cents: Type.Optional(
    Type.Integer({ description: 'Stakes held by allowed wager checks whose wager events have not arrived' }),
  ),
  remaining_cents: Type.Optional(
    Type.Integer({ description: 'What may still be staked under this limit now' }),
  ),
  spent_seconds: Type.Optional(
    Type.Integer({
      description:
        'play_time: time played in the window ending now (limit_session: the longest open session)',
    }),
  ),
  remaining_seconds: Type.Optional(Type.Integer({ description: 'play_time: time left to play now' })),
  next_reset_at: Type.Union([Timestamp, Type.Null()], {
    description:
      'When the oldest counted stake or payout leaves the window (play_time: when the oldest counted play starts leaving it); null when the window is empty',
  }),
  pending_change: Type.Union([KindLimitRecord, Type.Null()], {
    description: 'The increase cooling off for this kind and type, if any',
  }),
});
/** A limit of any kind with its use so far; a deposit limit's view is exactly the spec's listing. */
export const KindLimitView = Type.Union([KindUseView, { ...LimitView, additionalProperties: false }]);
export type KindLimitView = Static<typeof KindLimitView>;

export const ListLimitsQuery = Type.Object({
  user_id: UserId,
  limit_kind: Type.Optional(
    Type.Union([LimitKind, Type.Literal('all')], {
      description: 'deposit (the default, the spec’s listing), one other kind, or all',
    }),
  ),
});
export const LimitList = Type.Object({ user_id: Type.String(), limits: Type.Array(KindLimitView) });

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

export const WagerCheckRequest = Type.Object(
  { user_id: UserId, amount_cents: Cents, currency: CurrencyCode },
  { additionalProperties: false },
);
export type WagerCheckRequest = Static<typeof WagerCheckRequest>;

const StakeKind = Type.Enum(['loss', 'wager'] as const);
/** The wager check's answer: the allowed fields, or the rejected ones (as the deposit check's, with the kind). */
export const WagerCheckResult = Type.Object({
  allowed: Type.Boolean(),
  amount_cents: Type.Optional(Type.Integer({ description: 'Allowed: the checked stake' })),
  would_remain_cents: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description:
        'Allowed: the least room left under any loss or wager limit after this stake; null when none',
    }),
  ),
  active_limits: Type.Optional(
    Type.Array(Type.Object({ limit_kind: StakeKind, limit_type: WindowType }), {
      description: 'Allowed: the loss and wager limits in force',
    }),
  ),
  reason: Type.Optional(Type.Literal('exceeds_limit')),
  breached_limit_kind: Type.Optional(StakeKind),
  breached_limit_type: Type.Optional(WindowType),
  limit_amount_cents: Type.Optional(Type.Integer()),
  already_spent_cents: Type.Optional(
    Type.Integer({
      description: 'Rejected: stakes (wager) or net loss (loss) in the window, with held stakes',
    }),
  ),
  max_allowed_now_cents: Type.Optional(
    Type.Integer({ description: 'Rejected: the largest stake that fits every limit now' }),
  ),
  next_reset_at: Type.Optional(
    Type.Union([Timestamp, Type.Null()], {
      description:
        'Rejected: the earliest time the stake fits, as old stakes leave the window; null if never',
    }),
  ),
  user_message: Type.Optional(Type.String({ description: 'Rejected: plain language, display verbatim' })),
});
export type WagerCheckResult = Static<typeof WagerCheckResult>;

const EventTimestamp = Type.String({ format: 'date-time' });

/** limit.breach_attempt: a deposit check's rejection, or (with the kinds named) a wager check's. */
const BreachAttempt = Type.Object(
  {
    user_id: Type.String(),
    amount_cents: Type.Integer({ description: 'The rejected deposit or stake' }),
    currency: Type.String(),
    limit_id: Type.String(),
    limit_kind: Type.Optional(StakeKind),
    breached_limit_kind: Type.Optional(StakeKind),
    breached_limit_type: WindowType,
    limit_amount_cents: Type.Integer(),
    already_spent_cents: Type.Integer(),
    max_allowed_now_cents: Type.Integer(),
    next_reset_at: Type.Union([EventTimestamp, Type.Null()], {
      description: 'When the amount fits; null only for a stake that never fits',
    }),
  },
  { additionalProperties: false, description: 'A deposit or a stake was rejected by a limit' },
);

const EventLimitRecord = (description: string) => ({ ...LimitRecord, description });

/** Every event the limits area emits, with its data (limits.events.ts, statements/limits-check.ts, sessions/). */
export const LimitEvents = {
  'limit.created': EventLimitRecord('A first-time limit is set'),
  'limit.decreased': EventLimitRecord('A decrease takes effect'),
  'limit.activated': EventLimitRecord('A pending increase completed its cooling-off'),
  'limit.cancelled': EventLimitRecord('A pending increase is cancelled'),
  'limit.breach_attempt': BreachAttempt,
  'play_session.limit_reached': Type.Object(
    {
      session_id: Type.String(),
      user_id: Type.String(),
      limit_type: LimitType,
      reached_at: EventTimestamp,
    },
    { additionalProperties: false, description: 'A play session reached its play_time limit' },
  ),
} satisfies EventSchemas;

declare module '../../platform/events.js' {
  interface EventCatalogue extends EventDataOf<typeof LimitEvents> {}
}
