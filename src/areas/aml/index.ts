/**
 * The AML area's door: what the rest of the service may use of it. Its verbs are one a file in service/; the
 * evaluation queue and its work are in aml.evaluator.ts and aml.jobs.ts.
 */
import type { AreaManifest } from '../../platform/area.js';
import { amlBackofficeRoutes } from './aml.backoffice.routes.js';
import { registerAmlWork } from './aml.jobs.js';
import { amlRoutes } from './aml.routes.js';
import { amlEventsGroupCommit } from './service/ingest-event.js';
import { amlScreenHistoryGroupCommit } from './service/screen-withdrawal.js';
import { AmlEvents } from './aml.schemas.js';

export const amlArea: AreaManifest = {
  name: 'aml',
  events: AmlEvents,
  tenantRoutes: amlRoutes,
  backofficeRoutes: amlBackofficeRoutes,
  groupCommits: (db, config) => ({
    amlEvents: amlEventsGroupCommit(db, config),
    amlScreenHistory: amlScreenHistoryGroupCommit(db, config),
  }),
  start: registerAmlWork,
};

export { amlSettings } from './service/aml-settings.js';
export { approveDecision, decideCase, rejectDecision } from './service/decide-case.js';
export { ingestEvent } from './service/ingest-event.js';
export { staffDeadLetters } from './service/list-dead-letters.js';
export { redriveDeadLetter } from './service/redrive-dead-letter.js';
export { screenWithdrawal } from './service/screen-withdrawal.js';
export { setR009Window } from './service/set-r009-window.js';
export { caseSurroundings, staffCaseDetail, staffCases } from './service/staff-cases.js';
export { casesForUser, underAmlReview } from './service/user-cases.js';
export {
  ALLOWED_DECISIONS,
  DECISION_ACTIONS,
  FOUR_EYES_ACTIONS,
  isAwaitingReview,
  type DecisionAction,
} from './aml.case-rules.js';
export { EVALUATION_DEADLINE_MS, EVALUATION_PACED_WITHIN_MS, evaluationQueue } from './aml.evaluator.js';
export type { DeadLetter, DeadLetterEntry, StaffCasesPage } from './aml.schemas.js';
export { AWAITING_REVIEW_STATUSES, type AmlCaseStatus } from './aml.tables.js';
export { AML_REVIEW_QUEUE } from './aml.review-queue.js';
export { evaluationLag } from './service/evaluation-lag.js';
// The staff's player page reads a user's cases and latest events as the area's own pages do.
export { casesOfUser as amlCasesOfUser, recentEventsOfUser as recentAmlEvents } from './aml.cases.store.js';
