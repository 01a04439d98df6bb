import type { Platform } from '../../platform/context.js';
import { registerReviewDeadlines } from '../../platform/review-deadlines.js';
import { ensureJobScheduled, nextBatchDue, scheduleJob } from '../../platform/scheduler.js';
import { nextQuarterStart, quarterOf, RESCREENABLE_STATUSES } from './sanctions.rules.js';
import { SANCTIONS_REVIEW_QUEUE } from './sanctions.review-queue.js';
import * as store from './sanctions.store.js';
import { LIST_CHANGE_SCREEN_JOB, screenListChangeBatch } from './service/list-changes.js';
import { rescreenBatch } from './service/rescreen-batch.js';

export const QUARTERLY_RESCREEN_JOB = 'sanctions.rescreen_quarterly';
/** One batch of a quarterly run; the job's subject is the quarter, and it reschedules itself until the run ends. */
export const RESCREEN_BATCH_JOB = 'sanctions.rescreen_batch';
/** A quarterly run screens every player within a day of the quarter's start, pacing itself while the API is busy. */
const RESCREEN_PACED_WITHIN_MS = 86_400_000;

/** The "due soon" and "overdue" alerts of sanctions hits; a decided case raises neither. */
export function registerSanctionsReviewDeadlines(platform: Platform): void {
  registerReviewDeadlines(platform, SANCTIONS_REVIEW_QUEUE);
}

/**
 * The quarterly bulk re-screen. At each quarter's start a run is recorded with its population (clear and cleared
 * users screened before that instant) and its first batch is scheduled; each batch job re-screens up to
 * sanctionsRescreenBatchSize users after the stored cursor in its own transaction, stores the cursor and counts,
 * and schedules the next batch, so a restart resumes where the last committed batch ended. Also registers the
 * review alerts of sanctions hits, and the screening of every player against a list version's changes (the lists'
 * own jobs are registered by installProductionSanctions).
 */
export async function registerSanctionsJobs(platform: Platform): Promise<void> {
  registerSanctionsReviewDeadlines(platform);
  platform.scheduler.register(LIST_CHANGE_SCREEN_JOB, (tx, job, now) =>
    screenListChangeBatch(platform, tx, job.subject_id, now),
  );
  platform.scheduler.register(QUARTERLY_RESCREEN_JOB, async (tx, _job, now) => {
    const quarter = quarterOf(now);
    await store.insertRescreenRun(tx, {
      quarter,
      started_at: now,
      total: await store.countScreens(tx, RESCREENABLE_STATUSES, now),
      last_screen_id: null,
      finished_at: null,
    });
    await scheduleJob(tx, { kind: RESCREEN_BATCH_JOB, subjectId: quarter, dueAt: now });
    await scheduleJob(tx, { kind: QUARTERLY_RESCREEN_JOB, subjectId: 'all', dueAt: nextQuarterStart(now) });
  });
  platform.scheduler.register(RESCREEN_BATCH_JOB, async (tx, job, now) => {
    const started = performance.now();
    const run = await store.lockRescreenRun(tx, job.subject_id);
    if (!run || run.finished_at) return;
    const limit = platform.config.sanctionsRescreenBatchSize;
    const batch = await rescreenBatch(platform, tx, {
      after: run.last_screen_id,
      limit,
      checkedBefore: run.started_at,
    });
    const finished = batch.last === null || batch.screened + batch.skipped < limit;
    await store.updateRescreenRun(tx, run.quarter, {
      screened: run.screened + batch.screened,
      new_hits: run.new_hits + batch.new_hits,
      skipped: run.skipped + batch.skipped,
      last_screen_id: batch.last ?? run.last_screen_id,
      finished_at: finished ? now : null,
    });
    if (finished) {
      const totals = {
        screened: run.screened + batch.screened,
        new_hits: run.new_hits + batch.new_hits,
        skipped: run.skipped + batch.skipped,
      };
      platform.log.info({ quarter: run.quarter, ...totals }, 'quarterly sanctions re-screen finished');
      return;
    }
    await scheduleJob(tx, {
      kind: RESCREEN_BATCH_JOB,
      subjectId: run.quarter,
      dueAt: nextBatchDue(platform.clock, platform.load.latest, now, {
        items: batch.screened + batch.skipped,
        ms: performance.now() - started,
        waiting: run.total - run.screened - run.skipped - batch.screened - batch.skipped,
        startedAt: run.started_at,
        deadlineMs: RESCREEN_PACED_WITHIN_MS,
      }),
    });
  });
  await ensureJobScheduled(platform.db, {
    kind: QUARTERLY_RESCREEN_JOB,
    subjectId: 'all',
    dueAt: nextQuarterStart(platform.clock.now()),
  });
}
