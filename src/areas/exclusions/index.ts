/** The self-exclusion area's door: what the rest of the service may use of it. Its verbs are one a file in service/. */
import type { AreaManifest } from '../../platform/area.js';
import type { Platform } from '../../platform/context.js';
import { exclusionBackofficeRoutes } from './exclusions.backoffice.routes.js';
import { registerExclusionJobs } from './exclusions.jobs.js';
import { exclusionRoutes } from './exclusions.routes.js';
import { flushSightings } from './exclusions.sightings.js';
import { exclusionsCheckGroupCommit } from './service/check-exclusion.js';
import { ExclusionEvents } from './exclusions.schemas.js';

export const exclusionsArea: AreaManifest = {
  name: 'exclusions',
  events: ExclusionEvents,
  tenantRoutes: exclusionRoutes,
  backofficeRoutes: exclusionBackofficeRoutes,
  groupCommits: (db, config) => ({ exclusionsCheck: exclusionsCheckGroupCommit(db, config) }),
  async start(platform: Platform) {
    await registerExclusionJobs(platform);
    // Sightings are buffered for a moment: what is left is written when the service stops.
    return () => flushSightings(platform).catch(() => {});
  },
};

export { addRegulatorEntries } from './service/add-regulator-entries.js';
export { checkBatch, checkExclusion } from './service/check-exclusion.js';
export { createExclusion, ownExclusion } from './service/create-exclusion.js';
export { exportContact } from './service/export-contact.js';
export { decodeCursor, encodeCursor, snapshotPage } from './service/snapshot.js';
export { confirmVoid, getStaffExclusion, rejectVoid, voidExclusion } from './service/void-exclusion.js';
export { canonicalEmail, contactHash, normaliseEmail, normalisePhone } from './contact.js';
export { DURATIONS } from './exclusions.rules.js';
export { Duration, Exclusion, type RegulatorEntry, type StaffExclusion } from './exclusions.schemas.js';
export { recordContactsSent, recordContactsShown } from './exclusions.sightings.js';
// The staff's pages read one player's rows and a page of the regulator's master list.
export { exclusionsOfUser, regulatorRowsPage } from './exclusions.store.js';
// The tenant's own exclusion of a player in force (play sessions and the player status call).
export { activeOwnExclusion } from './exclusions.store.js';
