import { Type, type Static, type TSchema } from 'typebox';
import {
  describeSeconds,
  INSTANT_WINDOW,
  ISO_4217_PUBLISHED,
  JSON_LIMITS,
  type JsonLimits,
} from './validation.formats.js';

/** Shapes shared by every area: one schema validates, types and documents (OpenAPI). */
/**
 * A timestamp in a response: ISO 8601 UTC on the wire; handlers may return Date objects, which the serializer writes
 * as ISO. Requests take ClientTimestamp, typed as the string that arrives.
 */
export const Timestamp = Type.Unsafe<Date | string>({
  type: 'string',
  format: 'date-time',
  description: 'ISO 8601 UTC timestamp',
});
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/** How far ahead of the service clock a client's timestamp may be: clocks drift, but not into the future. */
export const MAX_FUTURE_SECONDS = 5 * 60;

/**
 * A timestamp the client stamps on its request: a real instant (no leap second, no 0000, no 30 February), at most
 * 5 minutes after and `maxPastSeconds` before the service clock. Each field's bound and its reason are in the docs.
 */
export const ClientTimestamp = (maxPastSeconds: number | null, description: string) =>
  Type.Unsafe<string>({
    type: 'string',
    format: 'date-time',
    [INSTANT_WINDOW]: {
      max_past_seconds: maxPastSeconds,
      max_future_seconds: MAX_FUTURE_SECONDS,
    },
    description: `ISO 8601 UTC timestamp; ${description}. At most ${describeSeconds(MAX_FUTURE_SECONDS)} after${
      maxPastSeconds === null ? '' : ` and ${describeSeconds(maxPastSeconds)} before`
    } the service's clock`,
  });

/** Free-form JSON bounded in depth and serialised size (see JSON_LIMITS). */
export const jsonLimits = (limits: JsonLimits) => ({ [JSON_LIMITS]: limits });

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

export const CurrencyCode = Type.String({
  pattern: '^[A-Z]{3}$',
  format: 'iso4217',
  description: `ISO 4217 currency code in capitals (List One as published ${ISO_4217_PUBLISHED})`,
});

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** The latest check of one configured download (a sanctions list, the IP geolocation database). */
export const DownloadReport = Type.Object({
  source: Type.String({ description: 'sanctions.<list> or geoip' }),
  url: Type.String({ description: 'Where it is downloaded from (credentials never shown)' }),
  outcome: Type.Union(
    [
      Type.Literal('updated'),
      Type.Literal('unchanged'),
      Type.Literal('not_modified'),
      Type.Literal('refused'),
      Type.Literal('failed'),
      Type.Literal('busy'),
      Type.Null(),
    ],
    {
      description:
        'null: never checked; updated: validated and now in use; unchanged: same bytes as in use; not_modified: the server answered 304; refused: downloaded but failed validation (alerted); failed: no complete download (alerted); busy: another process is downloading it now',
    },
  ),
  error: NullableString,
  version: Type.Union([Type.String(), Type.Null()], {
    description: 'The version in use from this source: a publication date, or a database build date',
  }),
  entities: Type.Union([Type.Integer(), Type.Null()]),
  checked_at: NullableTimestamp,
  fetched_at: Type.Union([Timestamp, Type.Null()], { description: 'When the version in use was downloaded' }),
});
export type DownloadReport = Static<typeof DownloadReport>;

export const Alert = Type.Object({
  alert_id: Type.String(),
  kind: Type.String({ description: 'download_failed, download_refused, …' }),
  subject: Type.String({ description: 'What it concerns: a download source, a case, a tenant' }),
  message: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
  raised_at: Timestamp,
});

/** A four-eyes proposal: a decision awaiting, or past, a second member of staff's approval (docs/console.md). */
export const DecisionProposal = Type.Object({
  proposal_id: Type.String(),
  subject: Type.String({ description: 'sanctions, aml, exclusion or staff' }),
  subject_id: Type.String({ description: 'The case id, the exclusion id or the staff id' }),
  tenant_id: Type.Union([Type.String(), Type.Null()], {
    description: 'null for what belongs to no tenant (a regulator row, a staff account)',
  }),
  action: Type.String({ description: 'The decision proposed' }),
  reason: Type.String(),
  proposed_by: Type.String({ description: 'The staff id of the member of staff who proposed it' }),
  proposed_at: Timestamp,
  status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
  decided_by: Type.Union([Type.String(), Type.Null()]),
  decided_at: NullableTimestamp,
  decision_reason: Type.Union([Type.String(), Type.Null()]),
});

/** The body of a rejected proposal: why the second member of staff disagreed. */
export const RejectProposalRequest = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }) },
  { additionalProperties: false },
);
