import type { Transaction } from 'kysely';
import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import * as fourEyes from '../../../platform/four-eyes.js';
import { emitEvent } from '../../../platform/outbox.js';
import { cancelReviewDeadlines } from '../../../platform/review-deadlines.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import {
  ALLOWED_DECISIONS,
  DECISIONS,
  FOUR_EYES_ACTIONS,
  isAwaitingReview,
  isOpen,
  type DecisionAction,
} from '../aml.case-rules.js';
import { reviewerReference } from '../../../staff/index.js';
import * as store from '../aml.cases.store.js';
import { decided as decisionEvent } from '../aml.events.js';
import type { AmlCase } from '../aml.tables.js';
import { staffCaseView, withProposal } from './staff-cases.js';

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
 * A staff decision by ctx's person (the reviewer, signed in). A freeze or an escalation is a four-eyes decision: it is stored as
 * a proposal (checked against ALLOWED_DECISIONS now), and takes effect only on a second member of staff's approval
 * (approveDecision). Returns the case as staff see it.
 */
export async function decideCase(
  ctx: ServiceContext,
  caseId: string,
  input: { action: DecisionAction; reason: string },
) {
  return withTransaction(ctx, async (tx, ctx) => {
    fourEyes.requirePerson(ctx);
    const found = await lockCase(tx, caseId);
    const refused = refusal(found, input.action);
    if (refused) throw refused;
    if (FOUR_EYES_ACTIONS.includes(input.action)) {
      await fourEyes.propose(tx, ctx, {
        subject: 'aml',
        subjectId: caseId,
        tenantId: found.tenant_id,
        action: input.action,
        reason: input.reason,
      });
    } else {
      await fourEyes.requireNoPending(tx, 'aml', caseId);
      return withProposal(tx, await applyDecision(tx, ctx, found, input.action, input.reason, null));
    }
    return withProposal(tx, staffCaseView(found, ctx.clock.now()));
  });
}

/** A second member of staff approves the case's proposed decision: it takes effect now, as its proposer's. */
export function approveDecision(ctx: ServiceContext, caseId: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockCase(tx, caseId);
    const proposal = await fourEyes.approvePending(tx, ctx, 'aml', caseId);
    const action = proposal.action as DecisionAction;
    // The case may have moved since the proposal (a clear by a reviewer is refused while one is pending, but a
    // transition can still be closed by then): the rules are checked again.
    const refused = refusal(found, action);
    if (refused) throw refused;
    const decider = { ...ctx, actor: proposal.proposed_by };
    return withProposal(tx, await applyDecision(tx, decider, found, action, proposal.reason, ctx.actor));
  });
}

/** A second member of staff rejects the proposal: the case awaits a decision again. */
export function rejectDecision(ctx: ServiceContext, caseId: string, reason: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockCase(tx, caseId);
    await fourEyes.rejectPending(tx, ctx, 'aml', caseId, reason);
    return withProposal(tx, staffCaseView(found, ctx.clock.now()));
  });
}

/**
 * The decision itself, in one transaction: the status change, the webhook, the audit row (actor, reason, request
 * id, and the approver of a four-eyes decision), and the end of the review alerts once the case no longer awaits
 * review.
 */
async function applyDecision(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  found: AmlCase,
  action: DecisionAction,
  reason: string,
  approvedBy: string | null,
) {
  const caseId = found.case_id;
  const decision = DECISIONS[action];
  const now = ctx.clock.now();
  const leavesReview = !isAwaitingReview(decision.to);
  const decided = await store.setCaseStatus(tx, caseId, {
    status: decision.to,
    reviewer: ctx.actor,
    reason,
    at: now,
    reviewedAt: found.reviewed_at ?? (leavesReview ? now : null),
  });
  if (leavesReview) await cancelReviewDeadlines(tx, 'aml', caseId);
  // Tenants learn an opaque reference of the reviewer, never who they are (the staff see the case).
  await emitEvent(tx, {
    tenantIds: decided.tenant_id,
    ...decisionEvent(action, decided, await reviewerReference(tx, ctx.actor)),
    at: now,
  });
  await audit(tx, forTenant(ctx, decided.tenant_id), `aml.case_${action}`, {
    case_id: caseId,
    origin: found.origin,
    from: found.status,
    to: decided.status,
    reason,
    ...(approvedBy ? { approved_by: approvedBy } : {}),
  });
  return staffCaseView(decided, now);
}
