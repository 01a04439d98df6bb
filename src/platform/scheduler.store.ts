import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Executor } from './db/database.js';
import type { ScheduledJob } from './db/platform-tables.js';
import type { DB } from './db/schema.js';

export interface JobRow {
  job_id: string;
  kind: string;
  subject_id: string;
  tenant_id: string | null;
  due_at: Date;
  /** JSON text. */
  payload: string;
}

/** Stores the job, or moves the one of its kind and subject to this due time and payload with fresh retries. */
export async function upsertJob(db: Executor, job: JobRow): Promise<void> {
  await db
    .insertInto('scheduled_jobs')
    .values(job)
    .onConflict((oc) =>
      oc.columns(['kind', 'subject_id']).doUpdateSet({
        due_at: job.due_at,
        payload: job.payload,
        attempts: 0,
        last_error: null,
      }),
    )
    .execute();
}

/**
 * upsertJob as SQL, for a statement that decides in SQL whether each job is scheduled (a data-modifying CTE, so the
 * decision and its stored work stay one round trip). `source` is the statement's `from … where …`, one row per job
 * and at most one per subject; the other fields are SQL expressions over it.
 */
export function jobUpsertSql(input: {
  kind: string;
  jobId: RawBuilder<string>;
  subjectId: RawBuilder<string>;
  tenantId: RawBuilder<string>;
  dueAt: RawBuilder<Date>;
  payload: RawBuilder<unknown>;
  source: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  return sql`insert into scheduled_jobs (job_id, kind, subject_id, tenant_id, due_at, payload)
    select ${input.jobId}, ${input.kind}, ${input.subjectId}, ${input.tenantId}, ${input.dueAt}, ${input.payload}
    ${input.source}
    on conflict (kind, subject_id) do update set due_at = excluded.due_at, payload = excluded.payload,
      attempts = 0, last_error = null`;
}

/** Stores the job unless one of its kind and subject exists already. */
export async function insertJobIfAbsent(db: Executor, job: JobRow): Promise<void> {
  await db
    .insertInto('scheduled_jobs')
    .values(job)
    .onConflict((oc) => oc.columns(['kind', 'subject_id']).doNothing())
    .execute();
}

export async function deleteJob(db: Executor, kind: string, subjectId: string): Promise<void> {
  await db
    .deleteFrom('scheduled_jobs')
    .where('kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .execute();
}

export async function countDueJobs(db: Executor, now: Date): Promise<number> {
  const due = await db
    .selectFrom('scheduled_jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('due_at', '<=', now)
    .executeTakeFirstOrThrow();
  return Number(due.n);
}

/** Jobs whose due time has passed at `now`, and those of them due before `lateBefore`: one statement. */
export async function countDueAndLateJobs(
  db: Executor,
  now: Date,
  lateBefore: Date,
): Promise<{ due: number; late: number }> {
  const row = await db
    .selectFrom('scheduled_jobs')
    .select((eb) => [
      eb.fn.countAll<number>().as('due'),
      eb.fn.countAll<number>().filterWhere('due_at', '<', lateBefore).as('late'),
    ])
    .where('due_at', '<=', now)
    .executeTakeFirstOrThrow();
  return { due: Number(row.due), late: Number(row.late) };
}

/** The earliest due job no other transaction holds, locked until this one ends. */
export function claimDueJob(tx: Transaction<DB>, now: Date): Promise<ScheduledJob | undefined> {
  return tx
    .selectFrom('scheduled_jobs')
    .selectAll()
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

/** Deletes a job that ran, unless its handler moved it to a new due time. */
export async function deleteRanJob(tx: Transaction<DB>, jobId: string, dueAt: Date): Promise<void> {
  await tx.deleteFrom('scheduled_jobs').where('job_id', '=', jobId).where('due_at', '=', dueAt).execute();
}

export async function recordJobFailure(
  tx: Transaction<DB>,
  jobId: string,
  retry: { attempts: number; last_error: string; due_at: Date },
): Promise<void> {
  await tx.updateTable('scheduled_jobs').set(retry).where('job_id', '=', jobId).execute();
}

/** When the earliest job falls due, if any. */
export async function nextDueAt(db: Executor): Promise<Date | undefined> {
  const row = await db
    .selectFrom('scheduled_jobs')
    .select('due_at')
    .orderBy('due_at')
    .limit(1)
    .executeTakeFirst();
  return row?.due_at;
}
