/** The regulatory reports' door: what the rest of the service may use of the area. Its verbs are one a file in service/. */
import type { AreaManifest } from '../../platform/area.js';
import { registerReportJobs } from './reports.jobs.js';
import { reportRoutes } from './reports.routes.js';

export const reportsArea: AreaManifest = {
  name: 'reports',
  backofficeRoutes: reportRoutes,
  start: registerReportJobs,
};

export { compileReport } from './service/compile-report.js';
export { compileDueReports } from './service/compile-due-reports.js';
export {
  dailyRowCounts,
  getReport,
  listReports,
  reportContent,
  type ReportView,
} from './service/read-reports.js';
export { regenerateReport } from './service/regenerate-report.js';
export type { Report } from './reports.schemas.js';
export { REPORT_TYPES, type ReportType } from './reports.tables.js';
