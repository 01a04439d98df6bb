/**
 * The service verbs of the KYC area, one a file in service/ (the moves of a check in service/transitions.ts): the
 * routes reach them here.
 */
export { checkStatus } from './service/check-status.js';
export { listReviews } from './service/list-reviews.js';
export { manualReview, staffManualReview } from './service/manual-review.js';
export { startKyc } from './service/start-kyc.js';
export { tierRecord } from './service/tier-record.js';
export { beginVendorFlow, submitVendorFlow } from './service/vendor-flow.js';
export { withdrawalCompleted } from './service/withdrawal-completed.js';
