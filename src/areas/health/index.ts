/** The health check's door. */
import type { AreaManifest } from '../../platform/area.js';
import { healthRoutes } from './health.routes.js';

export const healthArea: AreaManifest = { name: 'health', openRoutes: healthRoutes };
