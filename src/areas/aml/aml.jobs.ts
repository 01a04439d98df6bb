import { setTimeout as delay } from 'node:timers/promises';
import type { Platform } from '../../platform/context.js';
import { registerReviewDeadlines, type StillAwaitingReview } from '../../platform/review-deadlines.js';
import { isAwaitingReview } from './aml.case-rules.js';
import { findCase } from './aml.cases.store.js';
import { EVALUATION_RETRY_JOB, evaluatePending, retryEvaluation } from './aml.evaluator.js';
import { findEvent } from './aml.store.js';
import { runChecks } from './hot/checks.js';
import { MINIMAL_PLAY_JOB, minimalPlayAfterWindow } from './rules/r004-minimal-play.js';
import { applyTrips } from './service/apply-trips.js';

/** For the review alerts: a case still waits on a reviewer. */
export const stillAwaitingReview: StillAwaitingReview = async (tx, tenantId, caseId) => {
  const found = await findCase(tx, caseId);
  return found !== undefined && found.tenant_id === tenantId && isAwaitingReview(found.status);
};

/** Wires AML's background work: the evaluation queue and its retries, R-004's window-close job, review alerts. */
export function registerAmlWork(platform: Platform): void {
  const embedded = !platform.config.databaseUrl;
  platform.pollers.push({
    name: 'aml.evaluate',
    queueTable: 'aml_evaluation_queue',
    run: async () => {
      const started = performance.now();
      const evaluated = await evaluatePending(platform);
      // On embedded PGlite the evaluation rests as long as it worked (see EMBEDDED_BATCH_SIZE).
      if (embedded && evaluated > 0) await delay(performance.now() - started);
      return evaluated;
    },
  });
  platform.scheduler.register(EVALUATION_RETRY_JOB, (tx, job, now) =>
    retryEvaluation(platform, tx, job, now),
  );
  platform.scheduler.register(MINIMAL_PLAY_JOB, async (tx, job, now) => {
    const deposit = await findEvent(tx, job.subject_id);
    if (!deposit) return;
    const trips = await runChecks(tx, [minimalPlayAfterWindow(deposit)]);
    if (trips.length > 0) await applyTrips(tx, platform, deposit.tenant_id, trips, now);
  });
  registerReviewDeadlines(platform, 'aml', stillAwaitingReview);
}
