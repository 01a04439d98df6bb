/** The deposit-limits area's door: what the rest of the service may use of it. Its verbs are one a file in service/. */
import type { AreaManifest } from '../../platform/area.js';
import { registerLimitJobs } from './limits.jobs.js';
import { limitRoutes } from './limits.routes.js';
import { limitsCheckGroupCommit } from './service/check-deposit.js';

export const limitsArea: AreaManifest = {
  name: 'limits',
  tenantRoutes: limitRoutes,
  groupCommits: (db, config) => ({ limitsCheck: limitsCheckGroupCommit(db, config) }),
  start: registerLimitJobs,
};

export { cancelLimit } from './service/cancel-limit.js';
export { checkDeposit } from './service/check-deposit.js';
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
export { toRecord } from './limits.events.js';
export { LIMIT_TYPES } from './limits.rules.js';
export { DepositLimitRecord, LimitType, LimitView } from './limits.schemas.js';
