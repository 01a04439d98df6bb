/** The geo-blocking area's door: what the rest of the service may use of it. */
import type { AreaManifest, VendorSetup } from '../../platform/area.js';
import type { Platform } from '../../platform/context.js';
import { registerGeoJobs } from './geo.jobs.js';
import { geoBackofficeRoutes, geoRoutes } from './geo.routes.js';
import { geoAuditLogGroupCommit } from './service/check-ip.js';
import { geoVendors, installProductionGeo, type GeoVendors } from './resolver/production.js';
import { GeoEvents } from './geo.schemas.js';

export const geoArea: AreaManifest = {
  name: 'geo',
  events: GeoEvents,
  tenantRoutes: geoRoutes,
  backofficeRoutes: geoBackofficeRoutes,
  groupCommits: (db, config) => ({ geoAuditLog: geoAuditLogGroupCommit(db, config) }),
  vendors: ({ config, log }: VendorSetup, override: Partial<GeoVendors>) => geoVendors(config, log, override),
  async start(platform: Platform) {
    const close = await installProductionGeo(platform);
    await registerGeoJobs(platform);
    return close;
  },
};

export { tierMoved } from './geo.events.js';
export { COUNTRY_MOVE_REASONS, COUNTRY_MOVE_REASON_CODES, type CountryMoveReason } from './geo.rules.js';
export { countryList } from './service/country-list.js';
export { setCountryStatus } from './service/set-country-status.js';
