import { Type, type Static } from 'typebox';
import type { EventDataOf, EventSchemas } from '../../platform/events.js';
import { Timestamp } from '../../platform/schemas.js';
import { COUNTRY_MOVE_REASON_CODES } from './geo.rules.js';

export const GeoCheckRequest = Type.Object(
  {
    // Shape only here (a string); whether it is an IPv4 or IPv6 address is checked by the service (invalid_ip).
    ip_address: Type.String({ minLength: 1, maxLength: 100, description: "The user's IPv4 or IPv6 address" }),
    user_agent: Type.Optional(Type.String({ maxLength: 1000, description: "The user's browser user agent" })),
    context: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 50,
        default: 'signup',
        description: 'Where the check happens; `signup` (the default) is the documented value',
      }),
    ),
  },
  { additionalProperties: false },
);
export type GeoCheckRequest = Static<typeof GeoCheckRequest>;

export const GeoStatus = Type.Union([
  Type.Literal('status_allowed'),
  Type.Literal('status_restricted'),
  Type.Literal('status_blocked'),
]);

/** One shape with the spec's per-case fields optional: allowed, restricted and blocked carry different ones. */
export const GeoResult = Type.Object({
  status: GeoStatus,
  country_code: Type.String({ description: 'Two-letter country code' }),
  country_name: Type.String({
    description: 'Name of the list entry that decided (a country, or e.g. Ontario)',
  }),
  region: Type.Optional(Type.String({ description: 'Allowed case: ISO 3166-2 region, or the country code' })),
  ip_address: Type.Optional(Type.String({ description: 'Allowed case: the address as sent' })),
  checked_at: Timestamp,
  block_reason: Type.Optional(Type.String({ description: 'Blocked case' })),
  restriction_reason: Type.Optional(Type.Literal('requires_local_license')),
  user_message: Type.Optional(
    Type.String({ description: 'Blocked and restricted cases; show it to the user' }),
  ),
  next_action: Type.Optional(Type.Literal('queue_for_review')),
});
export type GeoResult = Static<typeof GeoResult>;

export const CountryStatus = Type.Union([
  Type.Literal('blocked'),
  Type.Literal('restricted'),
  Type.Literal('allowed'),
]);

export const CountryListEntry = Type.Object({
  code: Type.String({ description: 'ISO 3166-1 alpha-2, or a sub-national ISO 3166-2 entry such as CA-ON' }),
  name: Type.String(),
  status: CountryStatus,
});

export const CountryList = Type.Object({
  version: Type.String({ description: 'Date (YYYY-MM-DD) of the latest change to the list' }),
  countries: Type.Array(CountryListEntry),
});

export const CountryParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 10 }) });

export const SetCountryStatusRequest = Type.Object(
  {
    status: CountryStatus,
    reason: Type.Enum(COUNTRY_MOVE_REASON_CODES, {
      description:
        'Why, as a code (sent to every tenant in the event; no webhook carries text staff typed): ' +
        COUNTRY_MOVE_REASON_CODES.join(', '),
    }),
  },
  { additionalProperties: false },
);
export type SetCountryStatusRequest = Static<typeof SetCountryStatusRequest>;

/** A tier move of a list entry, announced to every tenant (geo.events.ts). */
const CountryMoved = (description: string) =>
  Type.Object(
    {
      country_code: Type.String(),
      country_name: Type.String(),
      previous_status: CountryStatus,
      new_status: CountryStatus,
      reason: SetCountryStatusRequest.properties.reason,
    },
    { additionalProperties: false, description },
  );

/** Every event the geo area emits, named by the entry's new tier. */
export const GeoEvents = {
  'geo.country_blocked': CountryMoved('A country moves to blocked'),
  'geo.country_restricted': CountryMoved('A country moves to restricted'),
  'geo.country_allowed': CountryMoved('A country moves back to allowed'),
} satisfies EventSchemas;

declare module '../../platform/events.js' {
  interface EventCatalogue extends EventDataOf<typeof GeoEvents> {}
}
