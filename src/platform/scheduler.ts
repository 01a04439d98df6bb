import { rollbackToSavepoint, savepoint } from './db/savepoints.js';
import type { Kysely, Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Executor } from './db/database.js';
import type { ScheduledJob } from './db/platform-tables.js';
import type { DB } from './db/schema.js';
import { newId } from './ids.js';
import { restAfterBatch } from './pacing.js';
import type { ForegroundLoad } from './process-load.js';
import { readOncePerScrape, type Metrics } from './metrics.js';
import {
  claimDueJob,
  countDueAndLateJobs,
  countDueJobs,
  deleteJob,
  deleteRanJob,
  insertJobIfAbsent,
  recordJobFailure,
  upsertJob,
} from './scheduler.store.js';

/**
 * Runs one due job inside the transaction that deletes it: its effects and its completion commit together. Work
 * that must not hold a transaction open (a download) is returned as a follow-up, run once the transaction has
 * committed; such a handler first moves its own job to a retry time, so a process that dies mid-way is replaced.
 */
export type JobHandler = (
  tx: Transaction<DB>,
  job: ScheduledJob,
  now: Date,
) => Promise<void | (() => Promise<void>)>;

/** The scheduling of a job as SQL, for a statement that decides whether to schedule it (see jobUpsertSql). */
export { jobUpsertSql } from './scheduler.store.js';

/** Stores (or moves) the one job of this kind for this subject, due at dueAt on the service clock. */
export async function scheduleJob(
  db: Executor,
  job: {
    kind: string;
    subjectId: string;
    tenantId?: string | null;
    dueAt: Date;
    payload?: Record<string, unknown>;
  },
): Promise<void> {
  await upsertJob(db, {
    job_id: newId('job'),
    kind: job.kind,
    subject_id: job.subjectId,
    tenant_id: job.tenantId ?? null,
    due_at: job.dueAt,
    payload: JSON.stringify(job.payload ?? {}),
  });
}

/** The shortest pause between two batches of work done in batches (see nextBatchDue). */
const MIN_BATCH_PAUSE_MS = 20;

/** Progress of work done in batches, for pacing its next batch: the batch just done, what waits, its deadline. */
export interface BatchProgress {
  items: number;
  ms: number;
  waiting: number;
  /** When the work started: its deadline runs from then. */
  startedAt: Date;
  /** The age by which the work must be done: its deadline less its margin. */
  deadlineMs: number;
}

/**
 * When the next batch of work done in batches is due: a pause after this batch ends, not after it started (a batch
 * longer than the pause would otherwise be due again at once, and the worker's pass would run the batches back to
 * back before it evaluates a single AML event or delivers a webhook). The pause is MIN_BATCH_PAUSE_MS while the API
 * is quiet, and as long as the work's deadline allows while it is busy (pacing.ts, ADR 0019).
 */
export function nextBatchDue(
  clock: Clock,
  foreground: ForegroundLoad,
  claimedAt: Date,
  progress: BatchProgress,
): Date {
  const rest = restAfterBatch({
    batch: { items: progress.items, ms: progress.ms },
    waiting: progress.waiting,
    oldestAgeMs: claimedAt.getTime() - progress.startedAt.getTime(),
    deadlineMs: progress.deadlineMs,
    foregroundBusy: foreground.busy,
    workers: foreground.workers,
  });
  return new Date(Math.max(claimedAt.getTime(), clock.now().getTime()) + Math.max(MIN_BATCH_PAUSE_MS, rest));
}

/** Stores a job unless one of this kind and subject exists already (start-up seeding of recurring work). */
export async function ensureJobScheduled(
  db: Executor,
  job: { kind: string; subjectId: string; dueAt: Date; payload?: Record<string, unknown> },
): Promise<void> {
  await insertJobIfAbsent(db, {
    job_id: newId('job'),
    kind: job.kind,
    subject_id: job.subjectId,
    tenant_id: null,
    due_at: job.dueAt,
    payload: JSON.stringify(job.payload ?? {}),
  });
}

export function cancelJob(db: Executor, kind: string, subjectId: string): Promise<void> {
  return deleteJob(db, kind, subjectId);
}

const RETRY_CAP_SECONDS = 3600;

/** A job due longer than this and not yet run is late: the worker loop polls every second or so. */
export const JOB_LATE_AFTER_SECONDS = 60;

/** The scheduler's gauges, read at each scrape in one statement. */
export function registerSchedulerMetrics(platform: { db: Executor; clock: Clock; metrics: Metrics }): void {
  const { db, clock, metrics } = platform;
  const counts = readOncePerScrape(() => {
    const now = clock.now();
    return countDueAndLateJobs(db, now, new Date(now.getTime() - JOB_LATE_AFTER_SECONDS * 1000));
  });
  metrics.gauge(
    'compliance_scheduler_jobs_due',
    'Scheduled jobs whose due time has passed',
    async () => (await counts()).due,
  );
  metrics.gauge(
    'compliance_scheduler_jobs_late',
    `Scheduled jobs due more than ${JOB_LATE_AFTER_SECONDS} s ago and not yet run`,
    async () => (await counts()).late,
  );
}

/**
 * Runs work that has fallen due, from the scheduled_jobs table. Each job is claimed with FOR UPDATE SKIP LOCKED
 * and deleted in the transaction that does its work, so with several processes a job runs exactly once, and a
 * crash mid-job leaves it due for the next pass.
 */
export class Scheduler {
  private readonly handlers = new Map<string, JobHandler>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  register(kind: string, handler: JobHandler): void {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} registered twice`);
    this.handlers.set(kind, handler);
  }

  /** Runs every job due now, one transaction each; returns how many ran. */
  async runDue(): Promise<number> {
    let ran = 0;
    while (await this.runOne()) ran++;
    return ran;
  }

  /**
   * Runs due work until none is left, waiting for jobs another process holds. Used by the test clock so that an
   * advance answers only once everything due by the new time has committed.
   */
  async runUntilIdle(): Promise<void> {
    for (;;) {
      await this.runDue();
      if ((await countDueJobs(this.db, this.clock.now())) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async runOne(): Promise<boolean> {
    const now = this.clock.now();
    let failed: { job: ScheduledJob; error: unknown } | undefined;
    let followUp: { job: ScheduledJob; run: () => Promise<void> } | undefined;
    const ran = await this.db.transaction().execute(async (tx) => {
      const job = await claimDueJob(tx, now);
      if (!job) return false;
      const handler = this.handlers.get(job.kind);
      // Where the job's own work starts: a failure undoes that work and keeps the claim.
      await savepoint(tx, 'job');
      try {
        if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
        const run = await handler(tx, job, now);
        if (run) followUp = { job, run };
        // A handler may reschedule its own job (recurring work): then the row has a new due time and stays.
        await deleteRanJob(tx, job.job_id, job.due_at);
      } catch (error) {
        await rollbackToSavepoint(tx, 'job');
        failed = { job, error };
        const delay = Math.min(RETRY_CAP_SECONDS, 2 ** job.attempts * 30);
        await recordJobFailure(tx, job.job_id, {
          attempts: job.attempts + 1,
          last_error: String(error instanceof Error ? error.message : error).slice(0, 1000),
          due_at: new Date(now.getTime() + delay * 1000),
        });
      }
      return true;
    });
    if (failed) {
      this.log.error(
        { err: failed.error, job_id: failed.job.job_id, kind: failed.job.kind },
        'scheduled job failed',
      );
    }
    if (followUp) {
      const { job, run } = followUp;
      await run().catch((error: unknown) =>
        this.log.error({ err: error, job_id: job.job_id, kind: job.kind }, 'scheduled job follow-up failed'),
      );
    }
    return ran;
  }
}
