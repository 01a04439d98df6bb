/**
 * The regulator's daily exports' door: the exclusions operators register, handed to the regulator's comprehensive
 * list by a daily file it acknowledges (docs/exclusions.md, "The hand-over to the regulator").
 */
import type { AreaManifest } from '../../platform/area.js';
import { registerRegulatorExportJob } from './regulator-exports.jobs.js';
import { regulatorExportRoutes } from './regulator-exports.routes.js';

export const regulatorExportsArea: AreaManifest = {
  name: 'regulator-exports',
  backofficeRoutes: regulatorExportRoutes,
  start: registerRegulatorExportJob,
};

export { acknowledgeExport, exportFile, listExports, type ExportView } from './service/exports.js';
export type { RegulatorExport } from './regulator-exports.schemas.js';
