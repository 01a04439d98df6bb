import { Type, type Static } from 'typebox';
import { ClientTimestamp, NullableTimestamp, Timestamp } from '../../platform/schemas.js';
import { LimitKind, LimitType } from '../limits/index.js';
import { RESTRICTION_CODES } from './players.rules.js';

/** Wire shapes of the player status call: each validates, types and documents (OpenAPI) one request or response. */
export const PlayerParams = Type.Object({
  user_id: Type.String({ minLength: 1, maxLength: 200, description: "The tenant's own player identifier" }),
});
export type PlayerParams = Static<typeof PlayerParams>;

// As the live exclusion check takes them: with either, the register and the regulator's list are consulted too.
export const PlayerStatusQuery = Type.Object({
  email: Type.Optional(
    Type.String({ maxLength: 320, description: "The player's email, to match the national register too" }),
  ),
  phone: Type.Optional(
    Type.String({
      maxLength: 64,
      description: "The player's phone in international form, to match the national register too",
    }),
  ),
});
export type PlayerStatusQuery = Static<typeof PlayerStatusQuery>;

export const Restriction = Type.Object({
  code: Type.Enum(RESTRICTION_CODES, {
    description:
      'self_excluded, timed_out, play_time_exhausted, account_under_review (a compliance review; never why), kyc_required (a withdrawal waits on verification), safer_gambling_review (the tenant stops deposits of a high-level player until an interaction is recorded)',
  }),
  until: { ...NullableTimestamp, description: 'When it ends; null when open-ended or not known in advance' },
});
export type Restriction = Static<typeof Restriction>;

/** A limit in force as the status lists it: the limits listing's figures, money kinds in cents, play_time in seconds. */
export const StatusLimit = Type.Object({
  limit_id: Type.String(),
  limit_kind: LimitKind,
  limit_type: LimitType,
  amount_cents: Type.Optional(Type.Integer()),
  currency: Type.Optional(Type.String()),
  amount_seconds: Type.Optional(Type.Integer()),
  spent_cents: Type.Optional(
    Type.Integer({ description: 'In the rolling window ending now: deposits, stakes or net loss' }),
  ),
  remaining_cents: Type.Optional(Type.Integer()),
  spent_seconds: Type.Optional(Type.Integer()),
  remaining_seconds: Type.Optional(Type.Integer()),
  next_reset_at: { ...NullableTimestamp, description: 'When the oldest counted amount leaves the window' },
});
export type StatusLimit = Static<typeof StatusLimit>;

export const PlayerStatus = Type.Object({
  user_id: Type.String(),
  can_play: Type.Boolean(),
  can_deposit: Type.Boolean(),
  can_withdraw: Type.Boolean(),
  marketing_allowed: Type.Boolean(),
  restrictions: Type.Array(Restriction, { description: 'At most one of each code, in the order listed' }),
  limits: Type.Array(StatusLimit, { description: 'Every limit in force, of every kind' }),
  reality_check_interval_seconds: Type.Integer({
    description:
      "The player's reality-check interval in seconds: their own, else the tenant's default, else 3600 (as a play session answers it)",
  }),
});
export type PlayerStatus = Static<typeof PlayerStatus>;

export const AccountClosedRequest = Type.Object(
  {
    closed_at: ClientTimestamp(null, 'when the account closed: the end of the business relationship'),
  },
  { additionalProperties: false },
);
export type AccountClosedRequest = Static<typeof AccountClosedRequest>;

/** The end of the relationship as recorded: the answer of POST /v1/players/{user_id}/closed. */
export const AccountClosure = Type.Object({
  user_id: Type.String(),
  closed_at: Timestamp,
  recorded_at: Timestamp,
});
export type AccountClosure = Static<typeof AccountClosure>;

export const ErasureRequestParams = Type.Object({
  ...PlayerParams.properties,
  erasure_request_id: Type.String({ minLength: 1, maxLength: 200 }),
});
export type ErasureRequestParams = Static<typeof ErasureRequestParams>;

export const ErasureRequestBody = Type.Object(
  {
    erasure_request_id: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^[A-Za-z0-9._:-]+$',
      description:
        "The operator's own id of the request: the same id and body again answer the stored request; the same id with another body is 409 duplicate_erasure_request",
    }),
    received_at: Type.Optional(
      ClientTimestamp(
        null,
        'when the player asked (the month to answer counts from it); the request time if absent',
      ),
    ),
  },
  { additionalProperties: false },
);
export type ErasureRequestBody = Static<typeof ErasureRequestBody>;

const ErasedData = Type.Object({
  table: Type.String({ description: "The kind of data, by its table in docs/data.md's retention table" }),
  holds: Type.String(),
  action: Type.Union([Type.Literal('deleted'), Type.Literal('pseudonymised'), Type.Literal('kept')], {
    description:
      'deleted: gone; pseudonymised: kept under a keyed pseudonym of the player, with names, contacts and free text hashed or erased; kept: kept whole',
  }),
  kept_because: Type.Union([Type.String(), Type.Null()], { description: 'Why it is kept (null: deleted)' }),
  kept_for: Type.Union([Type.String(), Type.Null()], { description: 'How long it is kept, and from when' }),
  kept_until: {
    ...NullableTimestamp,
    description: 'When it goes, once the service knows (the account closed)',
  },
  in_force_until: Type.Optional({
    ...NullableTimestamp,
    description:
      'Present when records of this kind still protect the player (an exclusion in force, or a time-out or limit while the account is open): they stay as they are until they stop (this time, or null: when the account closes or the exclusion ends), then the erasure finishes with them',
  }),
});

/**
 * An erasure request as the operator sees it: every kind of data the service can hold about a player, whether or not
 * it held any, with what the erasure did to it, so the answer says nothing of what was held (no counts).
 */
export const ErasureRequest = Type.Object({
  erasure_request_id: Type.String(),
  user_id: Type.String(),
  status: Type.Union([Type.Literal('in_progress'), Type.Literal('completed')], {
    description: 'in_progress while records that protect the player wait to be erased',
  }),
  received_at: Timestamp,
  recorded_at: Timestamp,
  completed_at: NullableTimestamp,
  data: Type.Array(ErasedData),
});
export type ErasureRequest = Static<typeof ErasureRequest>;

export const ErasureRequestList = Type.Object({ erasure_requests: Type.Array(ErasureRequest) });
export type ErasureRequestList = Static<typeof ErasureRequestList>;

/** The staff's view adds who asked and how many records of each kind were deleted, pseudonymised or kept. */
export const StaffErasureRequest = Type.Object({
  ...ErasureRequest.properties,
  requested_by: Type.String(),
  data: Type.Array(
    Type.Object({
      ...ErasedData.properties,
      records: Type.Integer(),
      in_force_records: Type.Optional(Type.Integer()),
    }),
  ),
});
export type StaffErasureRequest = Static<typeof StaffErasureRequest>;
