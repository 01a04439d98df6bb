import { Type } from 'typebox';
import type { EventDataOf, EventSchemas } from '../../platform/events.js';
import {
  FINANCIAL_CHECK_LEVELS,
  FINANCIAL_WINDOWS,
  MARKER_CODES,
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
