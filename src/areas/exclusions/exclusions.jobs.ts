import type { Transaction } from 'kysely';
import type { Platform } from '../../platform/context.js';
import type { DB } from '../../platform/db/schema.js';
import { cancelJob, ensureJobScheduled, scheduleJob } from '../../platform/scheduler.js';
import { announce } from './exclusions.events.js';
import { hashesOf } from './exclusions.sightings.js';
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
 * active → expired, announced with exclusion.expired to the tenants entitled to know of the row (those told of its
 * creation, and any that have shown its contacts since). Does nothing if already expired or voided.
 */
export async function expireExclusion(tx: Transaction<DB>, exclusionId: string, now: Date): Promise<void> {
  const row = await store.markExpired(tx, exclusionId, now);
  if (!row) return;
  await announce(tx, { event: 'exclusion.expired', row, at: now });
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

/** Gives rows stored before contacts were hashed their keyed hashes, a batch at a time, after start. */
export const HASH_BACKFILL_JOB = 'exclusion.hash_backfill';
const BACKFILL_BATCH = 5_000;

export async function registerExclusionJobs(platform: Platform): Promise<void> {
  platform.scheduler.register(EXPIRE_JOB, (tx, job, now) => expireExclusion(tx, job.subject_id, now));
  // Until a row has its hashes, no other tenant is told of it through a sighting: the backfill never shows more.
  platform.scheduler.register(HASH_BACKFILL_JOB, async (tx, _job, now) => {
    const rows = await store.rowsWithoutHashes(tx, BACKFILL_BATCH);
    await store.setHashes(
      tx,
      rows.map((row) => {
        const { email, phone } = hashesOf(platform, { email: row.email_canonical, phone: row.phone });
        return { exclusion_id: row.exclusion_id, email_hash: email, phone_hash: phone };
      }),
    );
    // A full batch means more may be left: the next one a second later, one transaction a batch.
    if (rows.length === BACKFILL_BATCH) {
      await scheduleJob(tx, {
        kind: HASH_BACKFILL_JOB,
        subjectId: 'all',
        dueAt: new Date(now.getTime() + 1000),
      });
    }
  });
  if ((await store.rowsWithoutHashes(platform.db, 1)).length > 0) {
    await ensureJobScheduled(platform.db, {
      kind: HASH_BACKFILL_JOB,
      subjectId: 'all',
      dueAt: platform.clock.now(),
    });
  }
}
