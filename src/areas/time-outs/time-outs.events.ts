import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { emitEvent } from '../../platform/outbox.js';
import type { TimeOut } from './time-outs.schemas.js';
import type { TimeOutRow } from './time-outs.tables.js';

/**
 * timeout.started: a time-out starts, or a longer one extends it (a new record; the player's earlier one is
 * superseded and never ends by itself). timeout.ended: the one in force reaches its ends_at, once.
 */
export type TimeOutEvent = 'timeout.started' | 'timeout.ended';

/** The time-out record as the API returns it: the response and both events' data share it. */
export function toTimeOut(row: TimeOutRow): TimeOut {
  return {
    time_out_id: row.time_out_id,
    user_id: row.user_id,
    duration: row.duration,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
  };
}

/** A time-out is the tenant's own: its events go to that tenant only, in the caller's transaction. */
export function emitTimeOutEvent(
  tx: Transaction<DB>,
  event: TimeOutEvent,
  row: TimeOutRow,
  at: Date,
): Promise<unknown> {
  return emitEvent(tx, { tenantIds: row.tenant_id, event, data: { ...toTimeOut(row) }, at });
}
