import type { Transaction } from 'kysely';
import * as decisions from '../../../platform/case-work/decisions.js';
import type { ServiceContext } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import {
  ALLOWED_DECISIONS,
  DECISIONS,
  FOUR_EYES_ACTIONS,
  isAwaitingReview,
  isOpen,
  type DecisionAction,
} from '../aml.case-rules.js';
import * as store from '../aml.cases.store.js';
import { decided as decisionEvent } from '../aml.events.js';
import { AML_REVIEW_QUEUE } from '../aml.review-queue.js';
import type { AmlCase } from '../aml.tables.js';
import { staffCaseView } from './staff-cases.js';

/** Why a decision is refused, or undefined when ALLOWED_DECISIONS allows it. */
function refusal(found: AmlCase, action: DecisionAction): AppError | undefined {
  if (!isOpen(found.status)) {
    return new AppError(
      'case_already_closed',
      `Case ${found.case_id} is ${found.status}; it takes no further decisions`,
    );
  }
  const from = ALLOWED_DECISIONS[found.origin][action];
  if (from.length === 0) {
    return new AppError(
      'decision_not_allowed_for_origin',
      `${action} is never allowed on a case of origin ${found.origin}`,
    );
  }
  if (!from.includes(found.status)) {
    return new AppError(
      'case_transition_not_allowed',
      `${action} on a case of origin ${found.origin} is allowed from ${from.join(', ')}; case ${found.case_id} is ${found.status}`,
    );
  }
  return undefined;
}

async function lockCase(tx: Transaction<DB>, caseId: string) {
  const found = await store.findCase(tx, caseId, true);
  if (!found) throw new AppError('case_not_found', `No AML case ${caseId}`);
  return found;
}

/**
 * How a staff decision on an AML case goes (the flow is the platform's, src/platform/case-work/decisions.ts): a freeze
 * or an escalation is a four-eyes decision; ALLOWED_DECISIONS is checked when decided and again when approved; the
 * decision moves the case as DECISIONS says and sends its webhook, and a case that leaves review ends its alerts.
 */
const AML_DECISIONS: decisions.CaseDecisions<AmlCase, DecisionAction, ReturnType<typeof staffCaseView>> = {
  queue: AML_REVIEW_QUEUE,
  fourEyes: FOUR_EYES_ACTIONS,
  lock: lockCase,
  refusal,
  record(tx, ctx, { found, action, reason, now }) {
    const to = DECISIONS[action].to;
    return store.setCaseStatus(tx, found.case_id, {
      status: to,
      reviewer: ctx.actor,
      reason,
      at: now,
      reviewedAt: found.reviewed_at ?? (isAwaitingReview(to) ? null : now),
    });
  },
  auditDetails: (found, decided) => ({ origin: found.origin, from: found.status, to: decided.status }),
  events: (decided, action, reviewer) => [decisionEvent(action, decided, reviewer)],
  view: staffCaseView,
};

/** A staff decision by ctx's person (the reviewer, signed in); a freeze or an escalation is only proposed. */
export const decideCase = (
  ctx: ServiceContext,
  caseId: string,
  input: { action: DecisionAction; reason: string },
) => decisions.decideCase(ctx, AML_DECISIONS, caseId, input.action, input.reason);

/** A second member of staff approves the case's proposed decision: it takes effect now, as its proposer's. */
export const approveDecision = (ctx: ServiceContext, caseId: string) =>
  decisions.approveDecision(ctx, AML_DECISIONS, caseId);

/** A second member of staff rejects the proposal: the case awaits a decision again. */
export const rejectDecision = (ctx: ServiceContext, caseId: string, reason: string) =>
  decisions.rejectDecision(ctx, AML_DECISIONS, caseId, reason);
