import { raiseAlert } from './alerts.js';
import { awaitsReview, queueState } from './case-work/queue.store.js';
import type { AnyReviewQueue, ReviewQueue } from './case-work/descriptor.js';
import type { Platform } from './context.js';
import type { Executor } from './db/database.js';
import { ageSeconds, readOncePerScrape } from './metrics.js';
import { cancelJob, scheduleJob } from './scheduler.js';

/**
 * The review queues with a due time: sanctions hits, AML cases, KYC checks awaiting manual review. Each area stores
 * the due time with its case; this module raises the two alerts a team needs from it ("due soon", a configurable
 * number of hours before, and "overdue", at the due time) from stored jobs on the service clock, so they survive a
 * restart and fire once across processes.
 */
export type ReviewAlertKind = 'review_due_soon' | 'review_overdue';

/** The scheduled job that raises this alert of this queue (a statement that opens cases may store it itself). */
export const reviewJobKind = (queue: ReviewQueue, alert: ReviewAlertKind): string =>
  `review.${queue}.${alert}`;

/** Stores both alerts' due times; call in the transaction that opens (or re-opens) the case. */
export async function scheduleReviewDeadlines(
  tx: Executor,
  platform: Pick<Platform, 'config'>,
  review: { queue: ReviewQueue; tenantId: string; caseId: string; dueAt: Date },
): Promise<void> {
  const warningAt = new Date(review.dueAt.getTime() - platform.config.reviewWarningHours * 3_600_000);
  const payload = { due_at: review.dueAt.toISOString() };
  const common = { subjectId: review.caseId, tenantId: review.tenantId, payload };
  await scheduleJob(tx, {
    ...common,
    kind: reviewJobKind(review.queue, 'review_due_soon'),
    dueAt: warningAt,
  });
  await scheduleJob(tx, {
    ...common,
    kind: reviewJobKind(review.queue, 'review_overdue'),
    dueAt: review.dueAt,
  });
}

/** Drops both alerts; call in the transaction that decides the case. */
export async function cancelReviewDeadlines(tx: Executor, queue: ReviewQueue, caseId: string): Promise<void> {
  await cancelJob(tx, reviewJobKind(queue, 'review_due_soon'), caseId);
  await cancelJob(tx, reviewJobKind(queue, 'review_overdue'), caseId);
}

/**
 * The queue's series of the review gauges (open, overdue, the oldest open case's age), read at each scrape in one
 * statement; each queue adds its own, so a later queue shows without naming it here.
 */
function registerReviewGauges(platform: Platform, review: AnyReviewQueue): void {
  const { queue, slaSeconds } = review;
  const labels = { queue };
  const state = readOncePerScrape(async () => {
    const now = platform.clock.now();
    return { now, ...(await queueState(platform.db, review, now)) };
  });
  const options = { labelNames: ['queue'] };
  platform.metrics.gauge(
    'compliance_review_cases_open',
    'Cases awaiting review, by queue',
    async () => [{ labels, value: (await state()).open }],
    options,
  );
  platform.metrics.gauge(
    'compliance_review_cases_overdue',
    'Cases awaiting review past their due time (the review SLA), by queue',
    async () => [{ labels, value: (await state()).overdue }],
    options,
  );
  platform.metrics.gauge(
    'compliance_review_oldest_open_case_seconds',
    'Age of the oldest case awaiting review, by queue (0 when none waits)',
    async () => {
      const { now, earliestDueAt } = await state();
      const joinedAt = earliestDueAt && new Date(earliestDueAt.getTime() - slaSeconds * 1000);
      return [{ labels, value: ageSeconds(now, joinedAt) }];
    },
    options,
  );
}

/**
 * Registers the queue's two alert jobs (each raises its alert only while the case still awaits review) and its
 * series of the review gauges.
 */
export function registerReviewDeadlines(platform: Platform, review: AnyReviewQueue): void {
  registerReviewGauges(platform, review);
  const { queue, label } = review;
  const counter = platform.metrics.counter(
    'compliance_review_alerts_total',
    'Review alerts raised: a case nearing its due time or past it',
    ['queue', 'kind'],
  );
  for (const kind of ['review_due_soon', 'review_overdue'] as const) {
    platform.scheduler.register(reviewJobKind(queue, kind), async (tx, job, now) => {
      if (!job.tenant_id || !(await awaitsReview(tx, review, job.tenant_id, job.subject_id))) return;
      const dueAt = String((job.payload as { due_at?: unknown }).due_at);
      const message =
        kind === 'review_overdue'
          ? `${label} ${job.subject_id} is past its due time (${dueAt})`
          : `${label} ${job.subject_id} is due at ${dueAt}`;
      await raiseAlert(
        tx,
        platform.log,
        {
          kind,
          subject: job.subject_id,
          message,
          details: { queue, tenant_id: job.tenant_id, due_at: dueAt },
        },
        now,
      );
      counter.inc({ queue, kind });
    });
  }
}
