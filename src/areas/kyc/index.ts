/** The KYC area's door: what the rest of the service may use of it. Its verbs are one a file in service/. */
import type { AreaManifest, VendorSetup } from '../../platform/area.js';
import type { VendorImplementations } from '../../platform/vendors.js';
import { kycBackofficeRoutes } from './kyc.backoffice.routes.js';
import { registerKycJobs } from './kyc.jobs.js';
import { kycRoutes } from './kyc.routes.js';
import { kycSandboxVendorRoutes } from './kyc.sandbox.routes.js';
import { kycVendors, type KycVendor } from './kyc.vendor.js';
import { KycEvents } from './kyc.schemas.js';

export const kycArea: AreaManifest = {
  name: 'kyc',
  events: KycEvents,
  tenantRoutes: kycRoutes,
  // The sandbox vendor's hosted flow: opened by the player's browser with the check's token, not a bearer key.
  openRoutes: kycSandboxVendorRoutes,
  backofficeRoutes: kycBackofficeRoutes,
  vendors: (_setup: VendorSetup, override: Partial<VendorImplementations<KycVendor>>) => kycVendors(override),
  start: registerKycJobs,
};

export { checkStatus, withdrawalHeldForKyc } from './service/check-status.js';
export { listReviews, reviewDetail } from './service/list-reviews.js';
export { manualReview, staffManualReview } from './service/manual-review.js';
export { startKyc } from './service/start-kyc.js';
export { tierRecord } from './service/tier-record.js';
export { beginVendorFlow, submitVendorFlow } from './service/vendor-flow.js';
export { withdrawalCompleted } from './service/withdrawal-completed.js';
export {
  KYC_TIER_THRESHOLDS_USD_CENTS,
  REVIEW_DUE_AFTER_SECONDS,
  isOpen,
  rank,
  ruleOf,
  type KycDocument,
  type KycStatus,
  type KycTier,
} from './kyc.rules.js';
export type { ReviewQueuePage } from './kyc.schemas.js';
export { KYC_REVIEW_QUEUE } from './kyc.review-queue.js';
// The staff's player page reads the user's checks.
export { kycChecksOfUser } from './kyc.store.js';
