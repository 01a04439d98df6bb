import type { Transaction } from 'kysely';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { cancelJob } from '../../../platform/scheduler.js';
import { emitLimitEvent } from '../limits.events.js';
import {
  findLimit,
  findOpenLimits,
  lockActivationJobs,
  lockUser,
  setStatus,
  type OpenLimit,
} from '../limits.store.js';
import type { DepositLimit } from '../limits.tables.js';
import { replanRunningSessions } from './play-time.js';

/** A pending increase goes live at effective_from: scheduled work on the service clock, due exactly then. */
export const ACTIVATE_JOB = 'limit.activate';

/** pending → active; the limit it replaces is superseded; limit.activated. The caller holds the user lock. */
async function activate(tx: Transaction<DB>, pending: DepositLimit, now: Date): Promise<DepositLimit> {
  const { active } = await findOpenLimits(
    tx,
    pending.tenant_id,
    pending.user_id,
    pending.limit_kind,
    pending.limit_type,
    now,
  );
  if (active) await setStatus(tx, active.tenant_id, active.limit_id, 'superseded', now);
  const activated = await setStatus(tx, pending.tenant_id, pending.limit_id, 'active', now);
  await emitLimitEvent(tx, 'limit.activated', activated, now);
  if (activated.limit_kind === 'play_time') {
    await replanRunningSessions(tx, activated.tenant_id, activated.user_id, now);
  }
  return activated;
}

/**
 * Activates a pending increase already in force (its cool-off has elapsed, by the check's own rule) whose job has
 * not run yet (workers behind), so that a change or cancellation is judged against the limit really in force. The
 * caller holds the job's row lock (lockActivationJobs) and the user lock. Returns the limits as they are after.
 */
export async function activateIfDue(
  tx: Transaction<DB>,
  open: { active?: OpenLimit; pending?: OpenLimit },
  now: Date,
): Promise<{ active?: DepositLimit; pending?: DepositLimit }> {
  const { pending } = open;
  if (!pending?.in_force) return open;
  await cancelJob(tx, ACTIVATE_JOB, pending.limit_id);
  return { active: await activate(tx, pending, now) };
}

export function registerActivationJob(platform: Platform): void {
  platform.scheduler.register(ACTIVATE_JOB, async (tx, job, now) => {
    // setLimit schedules every activation with the limit's tenant.
    if (!job.tenant_id) return;
    const pending = await findLimit(tx, job.tenant_id, job.subject_id);
    if (!pending) return;
    await lockUser(tx, pending.tenant_id, pending.user_id);
    // Re-read under the lock: a decrease or a cancellation may have ended it meanwhile.
    const current = await findLimit(tx, job.tenant_id, job.subject_id);
    if (current?.status === 'pending') await activate(tx, current, now);
  });
}

/** Takes the locks of a change to one user's limits, in the one order: activation jobs, then the user. */
export async function lockForChange(tx: Transaction<DB>, tenantId: string, userId: string): Promise<void> {
  await lockActivationJobs(tx, ACTIVATE_JOB, tenantId, userId);
  await lockUser(tx, tenantId, userId);
}
