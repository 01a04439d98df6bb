import type { Platform } from '../../platform/context.js';
import { readOncePerScrape } from '../../platform/metrics.js';
import { registerReviewDeadlines } from '../../platform/review-deadlines.js';
import {
  BACKLOG_COUNT_CAP,
  EVALUATION_DEADLINE_MS,
  EVALUATION_PACED_WITHIN_MS,
  EVALUATION_RETRY_JOB,
  evaluatePending,
  evaluationQueue,
  retryEvaluation,
} from './aml.evaluator.js';
import { AML_REVIEW_QUEUE } from './aml.review-queue.js';
import { countUnresolvedDeadLetters } from './aml.dead-letters.store.js';
import { findEvent } from './aml.store.js';
import { runChecks } from './statements/checks.js';
import { MINIMAL_PLAY_JOB, minimalPlayAfterWindow } from './rules/r004-minimal-play.js';
import { applyTrips } from './service/apply-trips.js';
import { deadLettersCounter } from './service/dead-letter.js';

/** Wires AML's background work: the evaluation queue and its retries, R-004's window-close job, review alerts. */
export function registerAmlWork(platform: Platform): void {
  const embedded = !platform.config.databaseUrl;
  const queue = () => evaluationQueue(platform.db);
  const evaluated = platform.metrics.counter(
    'compliance_aml_events_evaluated_total',
    'AML events taken off the evaluation queue and evaluated, by this process',
  );
  platform.pollers.push({
    name: 'aml.evaluate',
    queueTable: 'aml_evaluation_queue',
    run: async () => {
      const taken = await evaluatePending(platform);
      evaluated.inc(taken);
      return taken;
    },
    // On embedded PGlite the evaluation rests as long as it worked (see EMBEDDED_BATCH_SIZE), and is not paced: with
    // one thread for the API, the database and the worker, resting longer kept a backlog whose evaluation still took
    // the thread, and the acknowledgements waited longer (docs/performance.md, "Burst, then steady").
    ...(embedded
      ? { restsAsLongAsItWorks: true }
      : { pacing: { deadlineMs: EVALUATION_PACED_WITHIN_MS, backlog: queue } }),
  });
  // The two gauges of the queue are collected together at a scrape: they share one read.
  const queueAtScrape = readOncePerScrape(queue);
  platform.metrics.gauge(
    'compliance_aml_evaluation_oldest_seconds',
    'Age of the oldest AML event waiting for evaluation (0 when none waits)',
    async () => {
      const { oldestAt } = await queueAtScrape();
      return oldestAt ? Math.max(0, (platform.clock.now().getTime() - oldestAt.getTime()) / 1000) : 0;
    },
  );
  platform.metrics.gauge(
    'compliance_aml_evaluation_waiting',
    `AML events waiting for evaluation, counted up to ${BACKLOG_COUNT_CAP}`,
    async () => (await queueAtScrape()).waiting,
  );
  platform.metrics.gauge(
    'compliance_aml_evaluation_deadline_seconds',
    'The deadline of every AML event: evaluated within this many seconds of its acknowledgement',
    async () => EVALUATION_DEADLINE_MS / 1000,
  );
  // At 0 from the start, before the first dead letter.
  deadLettersCounter(platform);
  platform.metrics.gauge(
    'compliance_aml_dead_letters',
    'AML events in the dead letters and not yet re-driven',
    () => countUnresolvedDeadLetters(platform.db),
  );
  platform.scheduler.register(EVALUATION_RETRY_JOB, (tx, job, now) =>
    retryEvaluation(platform, tx, job, now),
  );
  platform.scheduler.register(MINIMAL_PLAY_JOB, async (tx, job, now) => {
    const deposit = await findEvent(tx, job.subject_id);
    if (!deposit) return;
    const trips = await runChecks(tx, [minimalPlayAfterWindow(deposit)]);
    if (trips.length > 0) await applyTrips(tx, platform, deposit.tenant_id, trips, now);
  });
  registerReviewDeadlines(platform, AML_REVIEW_QUEUE);
}
