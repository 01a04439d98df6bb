/** The sanctions screening area's door: what the rest of the service may use of it. Its verbs are one a file in service/. */
import type { AreaManifest, VendorSetup } from '../../platform/area.js';
import type { Platform } from '../../platform/context.js';
import { registerSanctionsJobs } from './sanctions.jobs.js';
import { registerSanctionsMetrics } from './sanctions.metrics.js';
import {
  installProductionSanctions,
  sanctionsVendors,
  type SanctionsVendors,
} from './sanctions.production.js';

import { sanctionsBackofficeRoutes } from './sanctions.backoffice.routes.js';
import { sanctionsRoutes } from './sanctions.routes.js';
import { SanctionsEvents } from './sanctions.schemas.js';

export const sanctionsArea: AreaManifest = {
  name: 'sanctions',
  events: SanctionsEvents,
  tenantRoutes: sanctionsRoutes,
  backofficeRoutes: sanctionsBackofficeRoutes,
  vendors: ({ config, clock, log }: VendorSetup, override: Partial<SanctionsVendors>) =>
    sanctionsVendors(config, clock, log, override),
  async start(platform: Platform) {
    await registerSanctionsJobs(platform);
    registerSanctionsMetrics(platform);
    return installProductionSanctions(platform);
  },
};

export {
  approveDecision,
  caseSurroundings,
  decideCase,
  findCase,
  listCases,
  rejectDecision,
} from './service/cases.js';
export { playerDismissals, withdrawDismissal, type DismissalView } from './service/dismissals.js';
export { listVersionDetail, listVersions } from './service/list-versions.js';
export { listsInForce } from './service/lists.js';
export { screeningStatus, transactionsHeld } from './service/screen.js';
export type { SanctionsEntity, SanctionsListId } from './lists/entity.js';
export type {
  ListVersionDetail,
  ListVersionView,
  ListVersions,
  ListsFetchResponse,
  ListsStatus,
} from './lists/lists.schemas.js';
export type { ListVersion, SanctionsMatch } from './sanctions.matcher.js';
export { AWAITING_REVIEW } from './sanctions.rules.js';
export { WithdrawDismissalRequest, type RescreenRuns, type SanctionsCaseView } from './sanctions.schemas.js';
export type { SanctionsCaseStatus } from './sanctions.tables.js';
export { SANCTIONS_REVIEW_QUEUE } from './sanctions.review-queue.js';
export { FOUR_EYES_DECISIONS, type Decision } from './sanctions.rules.js';
// The staff's player page reads the user's screen and its cases.
export { sanctionsOfUser } from './sanctions.store.js';
