import type { JSONColumnType, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';

export const REPORT_TYPES = ['threshold', 'self_limitation', 'safer_gambling'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export type PeriodKind = 'day' | 'month';
/** The periods each report is compiled for: the safer-gambling report is monthly only. */
export const REPORT_PERIOD_KINDS: Record<ReportType, readonly PeriodKind[]> = {
  threshold: ['day', 'month'],
  self_limitation: ['day', 'month'],
  safer_gambling: ['month'],
};
/** original: the scheduled compilation; regeneration: staff asked, with a reason; amendment: late data arrived. */
export type VersionKind = 'original' | 'regeneration' | 'amendment';

/** One version of one report: written once, never updated (docs/reports.md). */
export interface ReportsTable {
  report_id: string;
  tenant_id: string;
  report_type: ReportType;
  period_kind: PeriodKind;
  /** YYYY-MM-DD or YYYY-MM. */
  period: string;
  period_start: Timestamp;
  period_end: Timestamp;
  version: number;
  version_kind: VersionKind;
  reason: string | null;
  requested_by: string;
  generator_version: string;
  high_water_mark: Timestamp;
  compiled_at: Timestamp;
  row_count: number;
  /** Rows by UTC day (YYYY-MM-DD → count), for the console's chart. */
  daily_counts: JSONColumnType<Record<string, number>>;
  content_csv: string;
  content_json: string;
  sha256_csv: string;
  sha256_json: string;
}

export interface ReportTables {
  reports: ReportsTable;
}

export type Report = Selectable<ReportsTable>;
/** A version without its content: what lists carry. */
export type ReportSummary = Omit<Report, 'content_csv' | 'content_json'>;
