import { Type, type Static } from 'typebox';
import { ClientTimestamp, Timestamp } from '../../../platform/schemas.js';
import { LONGEST_WINDOW_SECONDS } from '../limits.rules.js';
import { UserId } from '../limits.schemas.js';
import {
  REALITY_CHECK_MAX_SECONDS,
  REALITY_CHECK_MIN_SECONDS,
  REFUSAL_REASONS,
  SESSION_COUNTING_BOUND_SECONDS,
} from './play-time.js';

/** Wire shapes of play sessions and reality checks: each validates, types and documents one request or response. */
const SessionId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The operator's own session id: the value its AML events carry in metadata.session_id",
});

export const StartPlaySessionRequest = Type.Object(
  {
    user_id: UserId,
    session_id: SessionId,
    // Play counts from here; a session older than its counting bound would already have stopped counting.
    started_at: ClientTimestamp(
      SESSION_COUNTING_BOUND_SECONDS,
      'when play started: time played counts from it',
    ),
  },
  { additionalProperties: false },
);
export type StartPlaySessionRequest = Static<typeof StartPlaySessionRequest>;

export const EndPlaySessionRequest = Type.Object(
  {
    // An end reported late still counts in every window: 30 days is the longest.
    ended_at: ClientTimestamp(LONGEST_WINDOW_SECONDS, 'when play ended; not before started_at'),
  },
  { additionalProperties: false },
);
export type EndPlaySessionRequest = Static<typeof EndPlaySessionRequest>;

export const SessionParams = Type.Object({ session_id: SessionId });
export const PlayerParams = Type.Object({ user_id: UserId });

export const PlaySession = Type.Object({
  session_id: Type.String(),
  user_id: Type.String(),
  started_at: Timestamp,
  ended_at: Type.Union([Timestamp, Type.Null()], { description: 'null while the session is open' }),
  allowed: Type.Boolean({ description: 'false: the player may not play; the session counts no time' }),
  reason: Type.Optional(
    Type.Enum(REFUSAL_REASONS, {
      description:
        'Refused only: self_excluded (an exclusion of this tenant), timed_out, play_time_exhausted (a daily, weekly or monthly play_time limit); the strongest first',
    }),
  ),
  ends_at: Type.Union([Timestamp, Type.Null()], {
    description:
      'When the first play_time limit in force at the start runs out (play_session.limit_reached is sent then); null when none does',
  }),
  reality_check_interval_seconds: Type.Union([Type.Integer(), Type.Null()], {
    description: "The player's reality-check interval when the session started",
  }),
  next_reality_check_at: Type.Union([Timestamp, Type.Null()], {
    description: 'The next reminder, every interval from started_at; null for a refused or finished session',
  }),
});
export type PlaySession = Static<typeof PlaySession>;

export const PlaySessionView = Type.Object({
  ...PlaySession.properties,
  elapsed_seconds: Type.Integer({
    description: 'From started_at to now, or to its end (at most its counting bound: 24 hours)',
  }),
  stakes_cents: Type.Integer({ description: 'Stakes of the wager events carrying this session_id' }),
  payouts_cents: Type.Integer({ description: 'Payouts of the settlement events carrying this session_id' }),
  net_cents: Type.Integer({ description: 'payouts_cents - stakes_cents: negative when the player is down' }),
  currency: Type.Union([Type.String(), Type.Null()], {
    description:
      "The currency of the amounts: the player's limits' currency, else the session's first event's; null when neither exists",
  }),
});
export type PlaySessionView = Static<typeof PlaySessionView>;

const Interval = Type.Integer({
  minimum: REALITY_CHECK_MIN_SECONDS,
  maximum: REALITY_CHECK_MAX_SECONDS,
  description: 'Seconds between reality checks, 300 to 7200',
});

export const RealityCheckRequest = Type.Object(
  {
    interval_seconds: Type.Union([Interval, Type.Null()], {
      description: "300 to 7200 seconds, or null for the tenant's default",
    }),
  },
  { additionalProperties: false },
);
export type RealityCheckRequest = Static<typeof RealityCheckRequest>;

const Effective = Type.Integer({
  description: 'The interval in force: the own setting, else the default above it (3600 for the service)',
});

export const PlayerRealityCheck = Type.Object({
  user_id: Type.String(),
  interval_seconds: Type.Union([Type.Integer(), Type.Null()], {
    description: "The player's own setting; null: the tenant's default",
  }),
  reality_check_interval_seconds: Effective,
});

export const TenantRealityCheck = Type.Object({
  tenant_id: Type.String(),
  interval_seconds: Type.Union([Type.Integer(), Type.Null()], {
    description: "The tenant's default; null: the service's (3600 seconds)",
  }),
  reality_check_interval_seconds: Effective,
});
