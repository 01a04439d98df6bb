import type { JSONColumnType, Selectable } from 'kysely';
import type { TableErasure } from '../../platform/data-erasure.js';
import type { Timestamp } from '../../platform/db/platform-tables.js';

/** The end of a business relationship, as the operator stated it: one row per player of a tenant. */
export interface PlayerClosuresTable {
  tenant_id: string;
  user_id: string;
  closed_at: Timestamp;
  recorded_at: Timestamp;
  request_hash: string;
}

/** A player's erasure request: the player by pseudonym, their id in clear only while it is in progress. */
export interface ErasureRequestsTable {
  tenant_id: string;
  erasure_request_id: string;
  pseudonym: string;
  user_id: string | null;
  requested_by: string;
  received_at: Timestamp;
  recorded_at: Timestamp;
  status: 'in_progress' | 'completed';
  completed_at: Timestamp | null;
  /** What it did to each table, summed over its runs. */
  outcome: JSONColumnType<TableErasure[]>;
  request_hash: string;
}

export interface PlayerTables {
  player_closures: PlayerClosuresTable;
  erasure_requests: ErasureRequestsTable;
}

export type PlayerClosureRow = Selectable<PlayerClosuresTable>;
export type ErasureRequestRow = Selectable<ErasureRequestsTable>;
