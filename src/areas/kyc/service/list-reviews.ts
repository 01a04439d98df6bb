import {
  listReviewQueue,
  queueEntry,
  queueNeighbours,
  slaBreached,
} from '../../../platform/case-work/queue.js';
import type { Platform, ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { KYC_REVIEW_QUEUE } from '../kyc.review-queue.js';
import type { ReviewQueueQuery } from '../kyc.schemas.js';
import { findCheckById, tenantEnvironment } from '../kyc.store.js';
import type { KycCheck } from '../kyc.tables.js';

/**
 * The staff's view of the KYC review queue: every check that reached pending_review, with its due time and whether
 * its SLA is breached (awaiting review at or past due, or decided at or after it).
 */
function reviewView(check: KycCheck, now: Date) {
  const { due_at, sla_breached } = queueEntry(KYC_REVIEW_QUEUE, check, now);
  return {
    kyc_check_id: check.kyc_check_id,
    tenant_id: check.tenant_id,
    user_id: check.user_id,
    status: check.status,
    required_tier: check.required_tier,
    required_documents: check.required_documents,
    created_at: check.created_at,
    due_at,
    sla_breached,
    decided_at: check.decided_at,
    decided_by: check.decided_by,
    decision_reason: check.decision_reason,
  };
}

/**
 * The KYC review queue across tenants, oldest-due first, a page at a time: next_cursor continues after the page's
 * last check (null at the end). overdue=true: in pending_review past the due time; overdue=false: everything else.
 */
export async function listReviews(platform: Platform, filter: ReviewQueueQuery) {
  const page = await listReviewQueue(platform, KYC_REVIEW_QUEUE, filter);
  const now = platform.clock.now();
  return { reviews: page.cases.map((c) => reviewView(c, now)), next_cursor: page.next_cursor };
}

/**
 * One check as the console's review page shows it (any tenant's, any status): the check, its tenant's environment
 * (which vendor serves it), and the checks before and after it in the queue of checks awaiting review.
 */
export async function reviewDetail(ctx: ServiceContext, checkId: string) {
  const check = await findCheckById(ctx.db, checkId);
  if (!check) throw new AppError('kyc_check_not_found', `No KYC check ${checkId}`);
  const [environment, neighbours] = await Promise.all([
    tenantEnvironment(ctx.db, check.tenant_id),
    queueNeighbours(ctx, KYC_REVIEW_QUEUE, check),
  ]);
  const now = ctx.clock.now();
  const sla_breached = check.review_due_at ? slaBreached(check.review_due_at, check.decided_at, now) : false;
  return { check, sla_breached, environment, ...neighbours };
}
