/** The reports' verbs, one a file in service/: routes, jobs and the CLI call the same ones. */
export { compileReport } from './service/compile-report.js';
export { compileDueReports } from './service/compile-due-reports.js';
export { dailyRowCounts, getReport, listReports, reportContent } from './service/read-reports.js';
export { regenerateReport } from './service/regenerate-report.js';
