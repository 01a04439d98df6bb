import type { Platform } from '../../platform/context.js';
import { registerReviewDeadlines } from '../../platform/review-deadlines.js';
import { KYC_REVIEW_QUEUE } from './kyc.review-queue.js';
import { findCheck, lockUser } from './kyc.store.js';
import { EXPIRE_JOB, expireCheck } from './service/transitions.js';

/**
 * The abandonment job (due 7 days after the last activity of a check waiting on the player, on the service clock)
 * and the review alerts of checks in pending_review.
 */
export function registerKycJobs(platform: Platform): void {
  // The "due soon" and "overdue" alerts of checks in pending_review; a decided check raises neither.
  registerReviewDeadlines(platform, KYC_REVIEW_QUEUE);
  platform.scheduler.register(EXPIRE_JOB, async (tx, job, now) => {
    if (!job.tenant_id) return;
    const found = await findCheck(tx, job.tenant_id, job.subject_id);
    if (!found) return;
    await lockUser(tx, found.tenant_id, found.user_id);
    const check = (await findCheck(tx, job.tenant_id, job.subject_id))!;
    await expireCheck(tx, check, now);
  });
}
