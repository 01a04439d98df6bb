/** The limits area's door (every kind of player limit): what the rest of the service may use of it. Its verbs are one a file in service/. */
import type { AreaManifest } from '../../platform/area.js';
import { registerLimitJobs } from './limits.jobs.js';
import { limitRoutes } from './limits.routes.js';
import { limitsCheckGroupCommit } from './service/check-deposit.js';
import { wagerCheckGroupCommit } from './service/check-wager.js';
import { playSessionBackofficeRoutes } from './sessions/sessions.backoffice.routes.js';
import { LimitEvents } from './limits.schemas.js';

export const limitsArea: AreaManifest = {
  name: 'limits',
  events: LimitEvents,
  tenantRoutes: limitRoutes,
  backofficeRoutes: playSessionBackofficeRoutes,
  groupCommits: (db, config) => ({
    limitsCheck: limitsCheckGroupCommit(db, config),
    wagerCheck: wagerCheckGroupCommit(db, config),
  }),
  start: registerLimitJobs,
};

export { breachAttemptsOfUser, type BreachAttempt } from './service/breach-attempts.js';
export { cancelLimit } from './service/cancel-limit.js';
export { checkDeposit } from './service/check-deposit.js';
export { commitDeposit } from './service/commit-deposit.js';
export { keptCurrency } from './service/currency.js';
export { limitHistory } from './service/limit-history.js';
export { listLimits, listLimitsOfKind } from './service/list-limits.js';
export { checkWager } from './service/check-wager.js';
export {
  releaseDeposit,
  releaseFailedDeposit,
  releaseReservation,
  toReleaseRecord,
  type FailedDeposit,
  type ReleaseOutcome,
} from './service/release-deposit.js';
export { setLimit } from './service/set-limit.js';
// The hosted embed shows the player's interval (their own or the default) and sets it, as the tenant API's PUT does.
export { realityCheckOf, setRealityCheck } from './service/reality-check.js';
// For the player status call: a play_time limit exhausted now and until when, and the reality-check interval.
export { playTimeRestriction, realityCheckIntervalOf } from './service/play-time.js';
export { toLimitRecord, toRecord } from './limits.events.js';
export type { LimitChange, LimitChangeKind, LimitHistoryEntry } from './limits.history.js';
export { WINDOW_TYPES } from './limits.rules.js';
export { DepositLimitRecord, LimitType, LimitView, WindowType } from './limits.schemas.js';
// The player status call and the hosted embed list every kind's limits as listLimitsOfKind answers them; the embed
// sets every kind.
export { KindLimitView, LimitKind, LimitRecord } from './limits.schemas.js';
