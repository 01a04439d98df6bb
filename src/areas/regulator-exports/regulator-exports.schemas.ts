import { Type, type Static } from 'typebox';
import { NullableTimestamp, Timestamp } from '../../platform/schemas.js';

/** Wire shapes of the hand-over to the regulator (docs/exclusions.md). */
const Environment = Type.Enum(['sandbox', 'live'] as const);
const Digest = Type.String({ description: 'Hex SHA-256 of the file in that format' });

export const RegulatorExport = Type.Object({
  export_id: Type.String(),
  environment: Environment,
  kind: Type.Enum(['daily', 'rerequest'] as const),
  export_date: Type.String({
    description: "A daily export's closing UTC day; a re-request's, the day it was made",
  }),
  rerequest_of: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  requested_by: Type.String(),
  created_at: Timestamp,
  row_count: Type.Integer(),
  sha256_csv: Digest,
  sha256_json: Digest,
  acknowledged_at: NullableTimestamp,
  acknowledged_by: Type.Union([Type.String(), Type.Null()]),
});
export type RegulatorExport = Static<typeof RegulatorExport>;

export const ExportParams = Type.Object({ export_id: Type.String({ maxLength: 64 }) });

export const ExportsQuery = Type.Object(
  {
    environment: Type.Optional(Environment),
    before: Type.Optional(
      Type.String({ maxLength: 64, description: 'The export_id of the last export of the previous page' }),
    ),
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  },
  { additionalProperties: false },
);

export const ExportFormatQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Enum(['csv', 'json'] as const, {
        description:
          'Absent: the export record. csv or json: the file itself, whose SHA-256 is the recorded digest',
      }),
    ),
  },
  { additionalProperties: false },
);

export const AcknowledgeRequest = Type.Object({}, { additionalProperties: false });

export const RerequestRequest = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }),
  },
  { additionalProperties: false },
);
