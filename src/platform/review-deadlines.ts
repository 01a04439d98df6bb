import type { Transaction } from 'kysely';
import { raiseAlert } from './alerts.js';
import { AppError } from './errors.js';
import type { Platform } from './context.js';
import type { Executor } from './db/database.js';
import type { DB } from './db/schema.js';
import { cancelJob, scheduleJob } from './scheduler.js';
import { isRealInstant } from './validation.formats.js';

/**
 * The review queues with a due time: sanctions hits, AML cases, KYC checks awaiting manual review. Each area stores
 * the due time with its case; this module raises the two alerts a team needs from it ("due soon", a configurable
 * number of hours before, and "overdue", at the due time) from stored jobs on the service clock, so they survive a
 * restart and fire once across processes.
 */
export type ReviewQueue = 'sanctions' | 'aml' | 'kyc';

export type ReviewAlertKind = 'review_due_soon' | 'review_overdue';

/** Whether the case still awaits a decision; a decided case raises nothing. */
export type StillAwaitingReview = (tx: Transaction<DB>, tenantId: string, caseId: string) => Promise<boolean>;

/** The scheduled job that raises this alert of this queue (a statement that opens cases may store it itself). */
export const reviewJobKind = (queue: ReviewQueue, alert: ReviewAlertKind): string =>
  `review.${queue}.${alert}`;

const QUEUE_NAMES: Record<ReviewQueue, string> = {
  sanctions: 'Sanctions hit',
  aml: 'AML case',
  kyc: 'KYC check',
};

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

/** Registers the queue's two alert jobs; each area calls it once with how to tell that a case is still open. */
export function registerReviewDeadlines(
  platform: Platform,
  queue: ReviewQueue,
  stillAwaitingReview: StillAwaitingReview,
): void {
  const counter = platform.metrics.counter(
    'compliance_review_alerts_total',
    'Review alerts raised: a case nearing its due time or past it',
    ['queue', 'kind'],
  );
  for (const kind of ['review_due_soon', 'review_overdue'] as const) {
    platform.scheduler.register(reviewJobKind(queue, kind), async (tx, job, now) => {
      if (!job.tenant_id || !(await stillAwaitingReview(tx, job.tenant_id, job.subject_id))) return;
      const dueAt = String((job.payload as { due_at?: unknown }).due_at);
      const message =
        kind === 'review_overdue'
          ? `${QUEUE_NAMES[queue]} ${job.subject_id} is past its due time (${dueAt})`
          : `${QUEUE_NAMES[queue]} ${job.subject_id} is due at ${dueAt}`;
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

/** Whether a review missed its due time: still awaiting a decision at or past it, or decided at or after it. */
export const slaBreached = (dueAt: Date, decidedAt: Date | null, now: Date): boolean =>
  (decidedAt ?? now) >= dueAt;

/** A review queue's keyset cursor: the (due time, case id) of a page's last case, opaque to callers. */
export const encodeReviewCursor = (dueAt: Date, caseId: string): string =>
  Buffer.from(JSON.stringify([dueAt.toISOString(), caseId])).toString('base64url');

export function decodeReviewCursor(cursor: string): { dueAt: Date; caseId: string } {
  try {
    const [due, caseId] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    // A made-up cursor may hold any date: only a real instant of years 0001 to 9999 reaches the database.
    if (typeof caseId === 'string' && typeof due === 'string' && isRealInstant(due)) {
      return { dueAt: new Date(due), caseId };
    }
  } catch {
    // Falls through to the 400 below.
  }
  throw new AppError('invalid_request', 'cursor is not one this listing returned');
}
