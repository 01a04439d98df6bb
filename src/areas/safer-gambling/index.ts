/**
 * The safer-gambling area's door (markers of harm, docs/safer-gambling.md): what the rest of the service may use of
 * it. Verbs in service/.
 */
import type { AreaManifest } from '../../platform/area.js';
import type { Platform } from '../../platform/context.js';
import { SaferGamblingEvents } from './safer-gambling.schemas.js';
import { registerStandingJobs } from './service/standing.js';

export const saferGamblingArea: AreaManifest = {
  name: 'safer-gambling',
  events: SaferGamblingEvents,
  start: (platform: Platform) => {
    registerStandingJobs(platform);
  },
};

export { recordMarkerTrips, type MarkerTrip } from './service/standing.js';
export { clearContest, saferGamblingOfPlayer, type PlayerSaferGambling } from './service/staff-view.js';
export { followUpId, playerOfFollowUp, SAFER_GAMBLING_REVIEW_QUEUE } from './safer-gambling.review-queue.js';
export {
  FINANCIAL_CHECK_LEVELS,
  INTERACTION_KINDS,
  INTERACTION_OUTCOMES,
  MARKER_CODES,
  MARKERS,
} from './safer-gambling.markers.js';
