/**
 * The service verbs of the AML area, one a file in service/: the routes reach them here. The evaluation queue and
 * its jobs are in aml.evaluator.ts and aml.jobs.ts.
 */
export { amlSettings } from './service/aml-settings.js';
export { approveDecision, decideCase, rejectDecision } from './service/decide-case.js';
export { amlEventsGroupCommit, ingestEvent } from './service/ingest-event.js';
export { staffDeadLetters } from './service/list-dead-letters.js';
export { redriveDeadLetter } from './service/redrive-dead-letter.js';
export { amlScreenHistoryGroupCommit, screenWithdrawal } from './service/screen-withdrawal.js';
export { setR009Window } from './service/set-r009-window.js';
export { staffCaseDetail, staffCases } from './service/staff-cases.js';
export { casesForUser } from './service/user-cases.js';
