/**
 * The service verbs of the limits area, one a file in service/: the routes, the jobs and the other areas (AML
 * releases a failed deposit's hold) reach them here.
 */
export { registerLimitJobs } from './limits.jobs.js';
export { cancelLimit } from './service/cancel-limit.js';
export { checkDeposit, limitsCheckGroupCommit } from './service/check-deposit.js';
export { commitDeposit } from './service/commit-deposit.js';
export { keptCurrency } from './service/currency.js';
export { listLimits } from './service/list-limits.js';
export {
  releaseDeposit,
  releaseFailedDeposit,
  releaseReservation,
  toReleaseRecord,
  type FailedDeposit,
  type ReleaseOutcome,
} from './service/release-deposit.js';
export { setLimit } from './service/set-limit.js';
