import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { emitEvent } from '../../../platform/outbox.js';
import { cancelReviewDeadlines } from '../../../platform/review-deadlines.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import {
  ALLOWED_DECISIONS,
  DECISIONS,
  isAwaitingReview,
  isOpen,
  type DecisionAction,
} from '../aml.case-rules.js';
import * as store from '../aml.cases.store.js';
import { decided as decisionEvent } from '../aml.events.js';
import type { AmlCase } from '../aml.tables.js';
import { staffCaseView } from './staff-cases.js';

/** Why a decision is refused, or undefined when ALLOWED_DECISIONS allows it. */
function refusal(found: AmlCase, action: DecisionAction): AppError | undefined {
  if (!isOpen(found.status)) {
    return new AppError(
      'case_already_closed',
      409,
      `Case ${found.case_id} is ${found.status}; it takes no further decisions`,
    );
  }
  const from = ALLOWED_DECISIONS[found.origin][action];
  if (from.length === 0) {
    return new AppError(
      'decision_not_allowed_for_origin',
      409,
      `${action} is never allowed on a case of origin ${found.origin}`,
    );
  }
  if (!from.includes(found.status)) {
    return new AppError(
      'case_transition_not_allowed',
      409,
      `${action} on a case of origin ${found.origin} is allowed from ${from.join(', ')}; case ${found.case_id} is ${found.status}`,
    );
  }
  return undefined;
}

/**
 * A staff decision by ctx's actor (the reviewer), in one transaction: the status change, the webhook, the audit row
 * (actor, reason, request id), and the end of the review alerts once the case no longer awaits review. Returns the
 * case as staff see it.
 */
export async function decideCase(
  ctx: ServiceContext,
  caseId: string,
  input: { action: DecisionAction; reason: string },
) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await store.findCase(tx, caseId, true);
    if (!found) throw new AppError('case_not_found', 404, `No AML case ${caseId}`);
    const refused = refusal(found, input.action);
    if (refused) throw refused;
    const decision = DECISIONS[input.action];
    const now = ctx.clock.now();
    const leavesReview = !isAwaitingReview(decision.to);
    const decided = await store.setCaseStatus(tx, caseId, {
      status: decision.to,
      reviewer: ctx.actor,
      reason: input.reason,
      at: now,
      reviewedAt: found.reviewed_at ?? (leavesReview ? now : null),
    });
    if (leavesReview) await cancelReviewDeadlines(tx, 'aml', caseId);
    await emitEvent(tx, {
      tenantIds: decided.tenant_id,
      ...decisionEvent(input.action, decided, ctx.actor),
      at: now,
    });
    await audit(tx, forTenant(ctx, decided.tenant_id), `aml.case_${input.action}`, {
      case_id: caseId,
      origin: found.origin,
      from: found.status,
      to: decided.status,
      reason: input.reason,
    });
    return staffCaseView(decided, now);
  });
}
