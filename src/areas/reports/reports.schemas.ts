import { Type, type Static } from 'typebox';
import { Timestamp } from '../../platform/schemas.js';
import { REPORT_TYPES } from './reports.tables.js';

/** Wire shapes of the regulatory reports (docs/reports.md). */
export const ReportTypeSchema = Type.Enum(REPORT_TYPES);
const Period = Type.String({
  format: 'date-or-month',
  maxLength: 10,
  description: 'A UTC day (YYYY-MM-DD) or a calendar month (YYYY-MM) that exists, years 0001 to 9999',
});

export const Report = Type.Object({
  report_id: Type.String(),
  tenant_id: Type.String(),
  report_type: ReportTypeSchema,
  period_kind: Type.Enum(['day', 'month'] as const),
  period: Type.String(),
  period_start: Timestamp,
  period_end: Timestamp,
  version: Type.Integer({ description: '1 for the original; each regeneration or amendment adds one' }),
  version_kind: Type.Enum(['original', 'regeneration', 'amendment'] as const),
  reason: Type.Union([Type.String(), Type.Null()]),
  requested_by: Type.String({
    description: "'service' for the scheduled compilation, else the member of staff",
  }),
  generator_version: Type.String(),
  high_water_mark: Timestamp,
  compiled_at: Timestamp,
  row_count: Type.Integer(),
  daily_counts: Type.Record(Type.String(), Type.Integer(), { description: 'Rows by UTC day' }),
  sha256_csv: Type.String(),
  sha256_json: Type.String(),
});
export type Report = Static<typeof Report>;

export const ReportParams = Type.Object({ report_id: Type.String({ maxLength: 64 }) });

export const ReportsQuery = Type.Object(
  {
    tenant_id: Type.Optional(Type.String({ maxLength: 64 })),
    report_type: Type.Optional(ReportTypeSchema),
    period: Type.Optional(Period),
    period_kind: Type.Optional(Type.Enum(['day', 'month'] as const)),
    before: Type.Optional(
      Type.String({ maxLength: 64, description: 'The report_id of the last version of the previous page' }),
    ),
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  },
  { additionalProperties: false },
);

export const ContentQuery = Type.Object(
  { format: Type.Enum(['csv', 'json'] as const, { default: 'json' }) },
  { additionalProperties: false },
);

export const RegenerateRequest = Type.Object(
  {
    tenant_id: Type.String({ minLength: 1, maxLength: 64 }),
    report_type: ReportTypeSchema,
    period: Period,
    reason: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' }),
  },
  { additionalProperties: false },
);
