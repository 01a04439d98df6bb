import type { Transaction } from 'kysely';
import type { Platform } from '../../platform/context.js';
import type { DB } from '../../platform/db/schema.js';
import { cancelJob, scheduleJob } from '../../platform/scheduler.js';
import { emitTimeOutEvent } from './time-outs.events.js';
import { markEnded } from './time-outs.store.js';
import type { TimeOutRow } from './time-outs.tables.js';

/** A time-out's end, as stored work on the service clock, due exactly at ends_at: it survives a restart. */
export const END_JOB = 'timeout.end';

export function scheduleEnd(tx: Transaction<DB>, row: TimeOutRow): Promise<void> {
  return scheduleJob(tx, {
    kind: END_JOB,
    subjectId: row.time_out_id,
    tenantId: row.tenant_id,
    dueAt: row.ends_at,
  });
}

/** active → ended with timeout.ended; nothing if it was superseded or has ended already (so it is sent once). */
export async function endTimeOut(
  tx: Transaction<DB>,
  tenantId: string,
  timeOutId: string,
  now: Date,
): Promise<void> {
  const ended = await markEnded(tx, tenantId, timeOutId, now);
  if (ended) await emitTimeOutEvent(tx, 'timeout.ended', ended, now);
}

/**
 * Ends a time-out whose ends_at has passed but whose job has not run (workers behind), before a new request is
 * judged. The job row goes first, in the scheduler's lock order (job, then time-out): a scheduler running the same
 * job is waited for rather than deadlocked with, and whichever commits first sends timeout.ended.
 */
export async function endLapsed(tx: Transaction<DB>, row: TimeOutRow, now: Date): Promise<void> {
  await cancelJob(tx, END_JOB, row.time_out_id);
  await endTimeOut(tx, row.tenant_id, row.time_out_id, now);
}

export function registerTimeOutJobs(platform: Platform): void {
  platform.scheduler.register(END_JOB, async (tx, job, now) => {
    // takeTimeOut schedules every end with the time-out's tenant.
    if (job.tenant_id) await endTimeOut(tx, job.tenant_id, job.subject_id, now);
  });
}
