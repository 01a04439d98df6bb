import type { Transaction } from 'kysely';
import { audit } from './audit.js';
import type { ServiceContext } from './context.js';
import type { DB } from './db/schema.js';
import { AppError } from './errors.js';
import * as store from './four-eyes.store.js';
import { newId } from './ids.js';
import type { ReviewQueue } from './review-deadlines.js';
import { forTenant } from './service-context.js';

export type { DecisionProposal } from './four-eyes.store.js';
export { pendingProposal, pendingProposals, proposalsOf } from './four-eyes.store.js';

/**
 * Four eyes (docs/console.md): a decision that takes effect only once a second member of staff approves it. The
 * area's verb stores the proposal instead of deciding; its approval verb takes the proposal here and then makes the
 * decision, as the proposer's, in the approver's transaction, so the webhooks fire on approval and never before.
 */
export async function propose(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  proposal: { subject: ReviewQueue; subjectId: string; tenantId: string; action: string; reason: string },
): Promise<store.DecisionProposal> {
  const inserted = await store.insertProposal(tx, {
    proposal_id: newId('proposal'),
    subject: proposal.subject,
    subject_id: proposal.subjectId,
    tenant_id: proposal.tenantId,
    action: proposal.action,
    reason: proposal.reason,
    proposed_by: ctx.actor,
    proposed_at: ctx.clock.now(),
  });
  if (!inserted) {
    const pending = await store.pendingProposal(tx, proposal.subject, proposal.subjectId);
    throw new AppError(
      'decision_already_proposed',
      409,
      `${pending?.proposed_by ?? 'Someone'} already proposed ${pending?.action ?? 'a decision'} on ${proposal.subjectId}; a second member of staff approves or rejects it first`,
    );
  }
  await audit(tx, forTenant(ctx, proposal.tenantId), `${proposal.subject}.decision_proposed`, {
    proposal_id: inserted.proposal_id,
    case_id: proposal.subjectId,
    action: proposal.action,
    reason: proposal.reason,
  });
  return inserted;
}

/** Locks the case's pending proposal for ctx's actor to approve or reject; the proposer cannot. */
async function takePending(tx: Transaction<DB>, ctx: ServiceContext, subject: ReviewQueue, caseId: string) {
  const proposal = await store.lockPendingProposal(tx, subject, caseId);
  if (!proposal) throw new AppError('no_decision_proposed', 409, `No decision on ${caseId} awaits approval`);
  if (proposal.proposed_by === ctx.actor) {
    throw new AppError(
      'second_approver_required',
      403,
      'The member of staff who proposed a decision cannot approve or reject it: a second one must',
    );
  }
  return proposal;
}

/** Closes the case's pending proposal as approved by ctx's actor; the caller then makes the decision it proposed. */
export async function approvePending(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  subject: ReviewQueue,
  caseId: string,
): Promise<store.DecisionProposal> {
  const proposal = await takePending(tx, ctx, subject, caseId);
  const approved = await store.closeProposal(tx, proposal.proposal_id, {
    status: 'approved',
    decided_by: ctx.actor,
    decided_at: ctx.clock.now(),
    decision_reason: null,
  });
  await audit(tx, forTenant(ctx, proposal.tenant_id), `${subject}.decision_approved`, {
    proposal_id: proposal.proposal_id,
    case_id: caseId,
    action: proposal.action,
    proposed_by: proposal.proposed_by,
  });
  return approved;
}

/** Closes the case's pending proposal as rejected by ctx's actor: the case awaits a decision again. */
export async function rejectPending(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  subject: ReviewQueue,
  caseId: string,
  reason: string,
): Promise<store.DecisionProposal> {
  const proposal = await takePending(tx, ctx, subject, caseId);
  const rejected = await store.closeProposal(tx, proposal.proposal_id, {
    status: 'rejected',
    decided_by: ctx.actor,
    decided_at: ctx.clock.now(),
    decision_reason: reason,
  });
  await audit(tx, forTenant(ctx, proposal.tenant_id), `${subject}.decision_rejected`, {
    proposal_id: proposal.proposal_id,
    case_id: caseId,
    action: proposal.action,
    proposed_by: proposal.proposed_by,
    reason,
  });
  return rejected;
}

/** A proposal as staff see it. */
export function proposalView(p: store.DecisionProposal) {
  return {
    proposal_id: p.proposal_id,
    subject: p.subject,
    case_id: p.subject_id,
    tenant_id: p.tenant_id,
    action: p.action,
    reason: p.reason,
    proposed_by: p.proposed_by,
    proposed_at: p.proposed_at.toISOString(),
    status: p.status,
    decided_by: p.decided_by,
    decided_at: p.decided_at?.toISOString() ?? null,
    decision_reason: p.decision_reason,
  };
}
