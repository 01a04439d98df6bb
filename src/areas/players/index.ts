/**
 * The players area's door: the player status call, which reads every player-facing area through its door, and the
 * end of a player's relationship with the tenant (player_closures, its one table). Nothing but the surfaces and the
 * manifests imports it.
 */
import type { AreaManifest } from '../../platform/area.js';
import { playerBackofficeRoutes } from './players.backoffice.routes.js';
import { playerRoutes } from './players.routes.js';
import { registerErasureJobs } from './service/erasure.js';

export const playersArea: AreaManifest = {
  name: 'players',
  tenantRoutes: playerRoutes,
  backofficeRoutes: playerBackofficeRoutes,
  start: registerErasureJobs,
};

// What a surface may show of a player (the console's player page, say).
export { playerStatus } from './service/player-status.js';
export type { PlayerStatus } from './players.schemas.js';
export type { StaffErasureRequest } from './players.schemas.js';
