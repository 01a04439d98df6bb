export type { Report, ReportSummary, ReportTables } from './reports.tables.js';
