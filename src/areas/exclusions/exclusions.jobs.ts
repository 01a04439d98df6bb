import type { Transaction } from 'kysely';
import type { Platform } from '../../platform/context.js';
import type { DB } from '../../platform/db/schema.js';
import { cancelJob, scheduleJob } from '../../platform/scheduler.js';
import { announce } from './exclusions.events.js';
import * as store from './exclusions.store.js';

/** A timed exclusion's end, as scheduled work on the service clock: due exactly at expires_at. */
export const EXPIRE_JOB = 'exclusion.expire';

export function scheduleExpiry(tx: Transaction<DB>, row: store.ExclusionRow): Promise<void> {
  if (row.expires_at === null) return Promise.resolve();
  return scheduleJob(tx, {
    kind: EXPIRE_JOB,
    subjectId: row.exclusion_id,
    tenantId: row.tenant_id,
    dueAt: row.expires_at,
  });
}

/**
 * active → expired, announced with exclusion.expired to every tenant of the environment (a superset of those told
 * of its creation: a tenant created since may hold the row from a snapshot). Does nothing if already expired.
 */
export async function expireExclusion(tx: Transaction<DB>, exclusionId: string, now: Date): Promise<void> {
  const row = await store.markExpired(tx, exclusionId, now);
  if (!row) return;
  await announce(tx, {
    event: 'exclusion.expired',
    row,
    tenantIds: await store.tenantIdsOf(tx, row.environment),
    at: now,
  });
}

/**
 * Expires rows whose time has passed but whose job has not run yet (workers behind or down), before a new
 * registration reuses their natural key. The job row is deleted first, in the scheduler's lock order (job, then
 * exclusion), so a scheduler running the same job concurrently is waited for rather than deadlocked with.
 */
export async function expireLapsed(
  tx: Transaction<DB>,
  rows: { exclusion_id: string }[],
  now: Date,
): Promise<void> {
  for (const { exclusion_id } of rows) {
    await cancelJob(tx, EXPIRE_JOB, exclusion_id);
    await expireExclusion(tx, exclusion_id, now);
  }
}

export function registerExclusionJobs(platform: Platform): void {
  platform.scheduler.register(EXPIRE_JOB, (tx, job, now) => expireExclusion(tx, job.subject_id, now));
}
