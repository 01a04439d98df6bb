/** The time-outs area's door ("take a break"): what the rest of the service may use of it. Verbs in service/. */
import type { AreaManifest } from '../../platform/area.js';
import { registerTimeOutJobs } from './time-outs.jobs.js';
import { timeOutRoutes } from './time-outs.routes.js';
import { TimeOutEvents } from './time-outs.schemas.js';

export const timeOutsArea: AreaManifest = {
  name: 'time-outs',
  events: TimeOutEvents,
  tenantRoutes: timeOutRoutes,
  start: registerTimeOutJobs,
};

export { listTimeOuts } from './service/list-time-outs.js';
export { takeTimeOut } from './service/take-time-out.js';
export { TIME_OUT_DURATIONS, type TimeOutDuration } from './time-outs.rules.js';
export { TakeTimeOutRequest, TimeOut, TimeOutView } from './time-outs.schemas.js';
// The time-out in force for a player at a time (the player status call and play sessions ask it), and a player's
// history with each status (the staff's player page).
export { activeTimeOut, timeOutsOfUser, type TimeOutWithStatus } from './time-outs.store.js';
// When a break taken now would end (the hosted embed's confirmation says it, and offers only longer breaks).
export { endsAt } from './time-outs.rules.js';
