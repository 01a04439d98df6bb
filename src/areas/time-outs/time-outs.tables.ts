import type { Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';
import type { TimeOutDuration } from './time-outs.rules.js';

/** active: in force until ends_at; superseded: replaced by a longer time-out; ended: ends_at has passed. */
export type TimeOutStatus = 'active' | 'superseded' | 'ended';

export interface TimeOutsTable {
  time_out_id: string;
  tenant_id: string;
  user_id: string;
  duration: TimeOutDuration;
  reason: string;
  initiated_at: Timestamp | null;
  channel: 'api' | 'embed';
  starts_at: Timestamp;
  ends_at: Timestamp;
  status: TimeOutStatus;
  extends_time_out_id: string | null;
  left_active_at: Timestamp | null;
}

export interface TimeOutTables {
  time_outs: TimeOutsTable;
}

export type TimeOutRow = Selectable<TimeOutsTable>;
