import { Type, type Static } from 'typebox';
import type { EventDataOf, EventSchemas } from '../../platform/events.js';
import { ClientTimestamp, Timestamp } from '../../platform/schemas.js';
import { DEFAULT_REASON, TIME_OUT_DURATIONS } from './time-outs.rules.js';

/** Wire shapes of the time-outs area: each validates, types and documents (OpenAPI) one request or response. */
export const TimeOutDuration = Type.Enum(TIME_OUT_DURATIONS, {
  description: 'How long the break lasts: 24 hours, 7 days, 30 days or 6 weeks (42 days), from receipt',
});
export type TimeOutDuration = Static<typeof TimeOutDuration>;

const UserId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The tenant's own player identifier",
});

export const TakeTimeOutRequest = Type.Object(
  {
    user_id: UserId,
    duration: TimeOutDuration,
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        default: DEFAULT_REASON,
        description: 'Context of the request (free text, kept with the record, shown to the service staff)',
      }),
    ),
    // Context only (the break runs from receipt); older than the longest duration is a mistake, as for exclusions.
    initiated_at: Type.Optional(ClientTimestamp(366 * 86_400, 'when the player asked for the break')),
  },
  { additionalProperties: false },
);
export type TakeTimeOutRequest = Static<typeof TakeTimeOutRequest>;

/** The time-out record: the response of POST /v1/time-outs and the data of timeout.started and timeout.ended. */
export const TimeOut = Type.Object({
  time_out_id: Type.String(),
  user_id: Type.String(),
  duration: TimeOutDuration,
  starts_at: Timestamp,
  ends_at: Timestamp,
});
export type TimeOut = Static<typeof TimeOut>;

export const TimeOutStatus = Type.Enum(['active', 'superseded', 'ended'] as const, {
  description:
    'active: in force until ends_at; superseded: replaced by a longer time-out (listed too, with extends_time_out_id naming this one); ended: ends_at has passed',
});

/** A time-out as the list shows it: the record, its status, and the time-out it extended. */
export const TimeOutView = Type.Object({
  ...TimeOut.properties,
  status: TimeOutStatus,
  extends_time_out_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The time-out this one extended; null for a fresh one',
  }),
});
export type TimeOutView = Static<typeof TimeOutView>;

export const ListTimeOutsQuery = Type.Object({ user_id: UserId });
export type ListTimeOutsQuery = Static<typeof ListTimeOutsQuery>;

export const TimeOutList = Type.Object({
  user_id: Type.String(),
  time_outs: Type.Array(TimeOutView, { description: 'Newest first; at most one is active' }),
});
export type TimeOutList = Static<typeof TimeOutList>;

/** Every event the time-outs area emits: both carry the time-out record (time-outs.events.ts). */
export const TimeOutEvents = {
  'timeout.started': { ...TimeOut, description: 'A time-out starts, or a longer one extends it' },
  'timeout.ended': { ...TimeOut, description: 'The time-out in force reaches its ends_at' },
} satisfies EventSchemas;

declare module '../../platform/events.js' {
  interface EventCatalogue extends EventDataOf<typeof TimeOutEvents> {}
}
