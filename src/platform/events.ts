import type { OpenAPIV3, OpenAPIV3_1 } from 'openapi-types';
import { Type, type Static, type TSchema } from 'typebox';

/**
 * The catalogue of webhook events: every event name the service emits with the schema of its `data`. Each area
 * declares its own in its *.schemas.ts (an `EventSchemas` object, on its manifest as `events`) and adds their types
 * to `EventCatalogue` below, so `emitEvent` takes no name or data the catalogue lacks; the OpenAPI document
 * publishes the same schemas (`webhooks`), and the typed client's events are generated from it.
 */

/** One part's events: event name to the schema of its `data`. */
export type EventSchemas = Record<string, TSchema>;

/** The data types of a part's events, by name: what an area adds to `EventCatalogue`. */
export type EventDataOf<Schemas extends EventSchemas> = {
  -readonly [Name in keyof Schemas]: Static<Schemas[Name]>;
};

/** The platform's own event: a test delivery a tenant asks the back office for. */
export const PlatformEvents = {
  ping: Type.Object(
    { tenant_id: Type.String({ description: 'The receiving tenant' }) },
    { additionalProperties: false, description: 'A test delivery, sent on request' },
  ),
} satisfies EventSchemas;

/**
 * Every event's data type by name. Areas add theirs by declaration merging (the platform names no area):
 * `declare module '…/platform/events.js' { interface EventCatalogue extends EventDataOf<typeof XEvents> {} }`.
 */
export interface EventCatalogue extends EventDataOf<typeof PlatformEvents> {}

export type EventName = keyof EventCatalogue;

/** An event as a value: its name and its data, checked together (a union over the names, not a pair of unions). */
export type EventOf<Names extends EventName = EventName> = {
  [Name in Names]: { event: Name; data: EventCatalogue[Name] };
}[Names];

/** The webhook envelope of one event (the spec's Resources): its `event` is the name itself. */
export const eventEnvelope = (name: string, data: TSchema) =>
  Type.Object(
    {
      event: Type.Literal(name),
      event_id: Type.String({ description: 'Identifier of the event (evt_…); also the webhook-id header' }),
      timestamp: Type.String({ format: 'date-time', description: 'When the event was produced' }),
      data,
    },
    { additionalProperties: false },
  );

/**
 * The events as OpenAPI 3.1 `webhooks`: one POST per event name whose body is its envelope, as the operator's
 * endpoint receives it. Generators (openapi-typescript) type a receiver's events from this.
 */
export function openApiWebhooks(catalogue: EventSchemas): Record<string, OpenAPIV3_1.PathItemObject> {
  return Object.fromEntries(
    Object.entries(catalogue).map(([name, data]) => [
      name,
      {
        post: {
          operationId: `event_${name.replace(/\./g, '_')}`,
          summary: (data as { description?: string }).description ?? name,
          description:
            'Signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature headers).',
          requestBody: {
            required: true,
            content: {
              // openapi-types' 3.1 media type still names the 3.0 schema object; a TypeBox schema is either.
              'application/json': { schema: eventEnvelope(name, data) as OpenAPIV3.SchemaObject },
            },
          },
          responses: { '2XX': { description: 'Received; any other answer is retried' } },
        },
      },
    ]),
  );
}
