import type { Transaction } from 'kysely';
import { audit } from './audit.js';
import type { ServiceContext } from './context.js';
import type { DB } from './db/schema.js';
import { AppError } from './errors.js';
import * as store from './four-eyes.store.js';
import { FOUR_EYES_SUBJECTS, type FourEyesSubject } from './four-eyes.store.js';
import { newId } from './ids.js';
import { forTenant } from './service-context.js';

export type { DecisionProposal, FourEyesSubject } from './four-eyes.store.js';
export {
  countPendingProposals,
  pendingProposal,
  pendingProposals,
  pendingProposalsFor,
  proposalsOf,
} from './four-eyes.store.js';

/**
 * Four eyes (docs/console.md): a decision that takes effect only once a second person approves it, for every kind
 * that needs one (a sanctions confirmation, an AML freeze or escalation, a permanent exclusion's void, a staff
 * account that can approve). The area's verb stores the proposal instead of deciding; its approval verb takes the
 * proposal here and then makes the decision, as the proposer's, in the approver's transaction, so the webhooks fire
 * on approval and never before. Proposer and approver are signed-in members of staff, never the back-office token,
 * and never the same account.
 */

export const isFourEyesSubject = (subject: string): subject is FourEyesSubject =>
  (FOUR_EYES_SUBJECTS as readonly string[]).includes(subject);

/** How the audit log names each subject, as its area's own rows do (the case page finds its trail by case_id). */
const SUBJECT_KEY: Record<FourEyesSubject, string> = {
  sanctions: 'case_id',
  aml: 'case_id',
  exclusion: 'exclusion_id',
  staff: 'staff_id',
};

/** The member of staff acting, or a 403: a four-eyes step is a person's, never the back-office token's. */
export function requirePerson(ctx: ServiceContext): string {
  if (ctx.staffId) return ctx.staffId;
  throw new AppError(
    'staff_session_required',
    'A member of staff signed in to the console must do this: the back-office token cannot propose, approve or reject a decision',
  );
}

export async function propose(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  proposal: {
    subject: FourEyesSubject;
    subjectId: string;
    tenantId: string | null;
    action: string;
    reason: string;
  },
): Promise<store.DecisionProposal> {
  const proposer = requirePerson(ctx);
  const inserted = await store.insertProposal(tx, {
    proposal_id: newId('proposal'),
    subject: proposal.subject,
    subject_id: proposal.subjectId,
    tenant_id: proposal.tenantId,
    action: proposal.action,
    reason: proposal.reason,
    proposed_by: proposer,
    proposed_at: ctx.clock.now(),
  });
  if (!inserted) throw alreadyProposed(proposal.subjectId);
  await audit(tx, forTenant(ctx, proposal.tenantId), `${proposal.subject}.decision_proposed`, {
    proposal_id: inserted.proposal_id,
    [SUBJECT_KEY[proposal.subject]]: proposal.subjectId,
    action: proposal.action,
    reason: proposal.reason,
  });
  return inserted;
}

const alreadyProposed = (subjectId: string) =>
  new AppError(
    'decision_already_proposed',
    `A decision on ${subjectId} awaits a second member of staff: approve or reject it first`,
  );

/** Refuses a decision that would go around a pending proposal (a clear while a freeze awaits approval, say). */
export async function requireNoPending(tx: Transaction<DB>, subject: FourEyesSubject, subjectId: string) {
  if (await store.pendingProposal(tx, subject, subjectId)) throw alreadyProposed(subjectId);
}

/** Locks the subject's pending proposal for ctx's person to approve or reject; the proposer cannot. */
async function takePending(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  subject: FourEyesSubject,
  subjectId: string,
) {
  const person = requirePerson(ctx);
  const proposal = await store.lockPendingProposal(tx, subject, subjectId);
  if (!proposal) {
    throw new AppError('no_decision_proposed', `No decision on ${subjectId} awaits approval`);
  }
  if (proposal.proposed_by === person) {
    throw new AppError(
      'second_approver_required',
      'The member of staff who proposed a decision cannot approve or reject it: a second one must',
    );
  }
  return { proposal, person };
}

async function close(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  subject: FourEyesSubject,
  subjectId: string,
  outcome: { status: 'approved' | 'rejected'; reason: string | null },
): Promise<store.DecisionProposal> {
  const { proposal, person } = await takePending(tx, ctx, subject, subjectId);
  const closed = await store.closeProposal(tx, proposal.proposal_id, {
    status: outcome.status,
    decided_by: person,
    decided_at: ctx.clock.now(),
    decision_reason: outcome.reason,
  });
  await audit(tx, forTenant(ctx, proposal.tenant_id), `${subject}.decision_${outcome.status}`, {
    proposal_id: proposal.proposal_id,
    [SUBJECT_KEY[subject]]: subjectId,
    action: proposal.action,
    proposed_by: proposal.proposed_by,
    ...(outcome.reason === null ? {} : { reason: outcome.reason }),
  });
  return closed;
}

/** Closes the subject's pending proposal as approved by ctx's person; the caller then makes the decision proposed. */
export function approvePending(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  subject: FourEyesSubject,
  subjectId: string,
): Promise<store.DecisionProposal> {
  return close(tx, ctx, subject, subjectId, { status: 'approved', reason: null });
}

/** Closes the subject's pending proposal as rejected by ctx's person: the subject awaits a decision again. */
export function rejectPending(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  subject: FourEyesSubject,
  subjectId: string,
  reason: string,
): Promise<store.DecisionProposal> {
  return close(tx, ctx, subject, subjectId, { status: 'rejected', reason });
}

/** A proposal as staff see it. */
export function proposalView(p: store.DecisionProposal) {
  return {
    proposal_id: p.proposal_id,
    subject: p.subject,
    subject_id: p.subject_id,
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
