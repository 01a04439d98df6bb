import { Type, type TSchema } from 'typebox';

/** Shapes shared by every area: one schema validates, types and documents (OpenAPI). */
/** ISO 8601 UTC timestamp on the wire; handlers may return Date objects, which the serializer writes as ISO. */
export const Timestamp = Type.Unsafe<Date | string>({
  type: 'string',
  format: 'date-time',
  description: 'ISO 8601 UTC timestamp',
});
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Stable machine-readable code; clients branch on this' }),
    message: Type.String({ description: 'Human-readable text; wording may change between releases' }),
    request_id: Type.String({ description: 'Server-side request identifier for support' }),
  },
  { additionalProperties: true },
);

/** Response map entry for documented errors. */
export const errorResponses = (...statuses: number[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((status) => [status, ErrorBody]));

export const CurrencyCode = Type.String({ pattern: '^[A-Z]{3}$', description: 'Three-letter currency code' });
