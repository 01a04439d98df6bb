/**
 * The safer-gambling area's door (markers of harm, docs/safer-gambling.md): what the rest of the service may use of
 * it. Verbs in service/.
 */
import type { AreaManifest } from '../../platform/area.js';
import type { Platform } from '../../platform/context.js';
import { saferGamblingBackofficeRoutes } from './safer-gambling.backoffice.routes.js';
import { saferGamblingRoutes } from './safer-gambling.routes.js';
import { SaferGamblingEvents } from './safer-gambling.schemas.js';
import { registerStandingJobs } from './service/standing.js';
import { registerEvaluationJobs } from './safer-gambling.jobs.js';
import { registerReviewDeadlines } from '../../platform/review-deadlines.js';
import { SAFER_GAMBLING_REVIEW_QUEUE } from './safer-gambling.review-queue.js';

export const saferGamblingArea: AreaManifest = {
  name: 'safer-gambling',
  events: SaferGamblingEvents,
  tenantRoutes: saferGamblingRoutes,
  backofficeRoutes: saferGamblingBackofficeRoutes,
  start: (platform: Platform) => {
    registerStandingJobs(platform);
    registerEvaluationJobs(platform);
    // The follow-up queue's gauges (open, overdue, oldest), as the other review queues have.
    registerReviewDeadlines(platform, SAFER_GAMBLING_REVIEW_QUEUE);
  },
};

export { recordMarkerTrips, type MarkerTrip } from './service/standing.js';
export { evaluateMarkersForEvents, type ObservedEvent } from './service/evaluate-events.js';
export { markerActivity, playActivity, type MarkerActivity } from './safer-gambling.jobs.js';
export { markerActivitySql } from './statements/marker-activity.js';
// The player status asks what a player's standing sets (marketing, deposits) at every login.
export { saferGamblingStanding } from './service/standing-effects.js';
// A player's standing as the operator reads it, and a tenant's settings, for the surfaces (the console's pages).
export { saferGamblingView } from './service/player-view.js';
export { saferGamblingSettings, setSaferGamblingSettings } from './service/settings.js';
export { SaferGamblingSettings, SaferGamblingView } from './safer-gambling.schemas.js';
export { clearContest, saferGamblingOfPlayer, type PlayerSaferGambling } from './service/staff-view.js';
export { followUpId, playerOfFollowUp, SAFER_GAMBLING_REVIEW_QUEUE } from './safer-gambling.review-queue.js';
export {
  FINANCIAL_CHECK_LEVELS,
  INTERACTION_KINDS,
  INTERACTION_OUTCOMES,
  MARKER_CODES,
  MARKERS,
} from './safer-gambling.markers.js';
