import type { Selectable } from 'kysely';
import type { Environment, Timestamp } from '../../platform/db/platform-tables.js';

/**
 * One hand-over of operator-registered exclusions to the regulator: a daily export, or a re-request of an earlier
 * one. Its rows are rendered from the register (columns that never change), so only ids and digests are kept.
 */
export interface RegulatorExportsTable {
  export_id: string;
  environment: Environment;
  kind: 'daily' | 'rerequest';
  /** YYYY-MM-DD: the UTC day a daily export closes; a re-request's, the day it was made. */
  export_date: string;
  rerequest_of: string | null;
  reason: string | null;
  requested_by: string;
  created_at: Timestamp;
  row_count: number;
  sha256_csv: string;
  sha256_json: string;
  /** CSV text cells that could start a formula are neutralised (every export since; false: written before). */
  csv_cells_neutralised: boolean;
  acknowledged_at: Timestamp | null;
  acknowledged_by: string | null;
}

/** registration: the row as registered; void: staff voided it, after a registration was exported. */
export type ExportRecord = 'registration' | 'void';

export interface RegulatorExportRowsTable {
  export_id: string;
  exclusion_id: string;
  record: ExportRecord;
}

export interface RegulatorExportTables {
  regulator_exports: RegulatorExportsTable;
  regulator_export_rows: RegulatorExportRowsTable;
}

export type RegulatorExport = Selectable<RegulatorExportsTable>;
