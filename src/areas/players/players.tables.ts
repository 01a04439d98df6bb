import type { Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';

/** The end of a business relationship, as the operator stated it: one row per player of a tenant. */
export interface PlayerClosuresTable {
  tenant_id: string;
  user_id: string;
  closed_at: Timestamp;
  recorded_at: Timestamp;
  request_hash: string;
}

export interface PlayerTables {
  player_closures: PlayerClosuresTable;
}

export type PlayerClosureRow = Selectable<PlayerClosuresTable>;
