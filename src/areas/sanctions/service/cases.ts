import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import type { Executor } from '../../../platform/db/database.js';
import { AppError } from '../../../platform/errors.js';
import {
  cancelReviewDeadlines,
  decodeReviewCursor,
  encodeReviewCursor,
  slaBreached,
} from '../../../platform/review-deadlines.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { emitDecision } from '../sanctions.events.js';
import { AWAITING_REVIEW, DECISIONS } from '../sanctions.rules.js';
import type { CasesQuery, DecisionRequest } from '../sanctions.schemas.js';
import * as store from '../sanctions.store.js';
import type { SanctionsCase } from '../sanctions.tables.js';

/** Staff verbs: the review queue (the only place matched entities appear) and the reviewer's decision on a hit. */

/** The case as staff see it, with whether its review SLA is breached (awaiting review past due, or decided late). */
export function staffCaseView(found: SanctionsCase, now: Date) {
  return {
    ...found,
    sla_breached: slaBreached(found.due_at, found.decided_at, now),
  };
}

/**
 * The review queue, oldest-due first, a page at a time: next_cursor continues after the page's last case (null at
 * the end). overdue=true: awaiting review past the due time; overdue=false: everything else.
 */
export async function listCases(ctx: ServiceContext, filter: CasesQuery) {
  const now = ctx.clock.now();
  const rows = await store.listCases(
    ctx.db,
    {
      limit: filter.limit,
      status: filter.status,
      tenant_id: filter.tenant_id,
      overdue: filter.overdue,
      after: filter.cursor ? decodeReviewCursor(filter.cursor) : undefined,
    },
    now,
  );
  const page = rows.slice(0, filter.limit);
  return {
    cases: page.map((c) => staffCaseView(c, now)),
    next_cursor:
      rows.length > filter.limit ? encodeReviewCursor(page.at(-1)!.due_at, page.at(-1)!.case_id) : null,
  };
}

export async function findCase(ctx: ServiceContext, caseId: string) {
  const found = await store.findCase(ctx.db, caseId);
  if (!found) throw new AppError('case_not_found', 404, `No sanctions case ${caseId}`);
  return staffCaseView(found, ctx.clock.now());
}

/**
 * A decision by ctx's actor (the reviewer), from hit_review_pending only. cleared lifts the holds (sanctions.cleared); confirmed
 * keeps them and freezes the account (sanctions.confirmed, then sanctions.account_frozen). The audit row (reviewer,
 * reason, request id) and the end of the case's review alerts commit with the decision.
 */
export async function decideCase(
  ctx: ServiceContext,
  caseId: string,
  input: Pick<DecisionRequest, 'decision' | 'reason'>,
) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await store.lockCase(tx, caseId);
    if (!found) throw new AppError('case_not_found', 404, `No sanctions case ${caseId}`);
    if (found.status !== AWAITING_REVIEW) {
      throw new AppError('case_already_decided', 409, `Case ${caseId} was already ${found.status}`);
    }
    const now = ctx.clock.now();
    const { transactions_held } = DECISIONS[input.decision];
    const decided = await store.recordDecision(tx, caseId, {
      status: input.decision,
      decided_at: now,
      reviewer: ctx.actor,
      decision_reason: input.reason,
    });
    await store.setScreenStatus(tx, found.screen_id, {
      status: input.decision,
      transactions_held,
      updated_at: now,
    });
    await cancelReviewDeadlines(tx, 'sanctions', caseId);
    await audit(tx, forTenant(ctx, found.tenant_id), `sanctions.case_${input.decision}`, {
      case_id: caseId,
      user_id: found.user_id,
      decision: input.decision,
      reason: input.reason,
    });
    const data = { case_id: caseId, user_id: found.user_id, reviewer: ctx.actor, transactions_held };
    await emitDecision(tx, found.tenant_id, input.decision, data, now);
    return staffCaseView(decided, now);
  });
}

/** Whether the case still awaits review: its "due soon" and "overdue" alerts are raised only then. */
export async function caseAwaitingReview(tx: Executor, tenantId: string, caseId: string): Promise<boolean> {
  const found = await store.findCaseStatus(tx, tenantId, caseId);
  return found?.status === AWAITING_REVIEW;
}
