import type { Transaction } from 'kysely';
import { audit } from '../audit.js';
import type { ServiceContext } from '../context.js';
import type { Executor } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { AppError } from '../errors.js';
import * as fourEyes from '../four-eyes.js';
import type { EventOf } from '../events.js';
import { emitEvent } from '../outbox.js';
import { cancelReviewDeadlines } from '../review-deadlines.js';
import { forTenant, withTransaction } from '../service-context.js';
import * as store from './decisions.store.js';
import type { AnyReviewQueue } from './descriptor.js';

/**
 * A reviewer's decision on a case of a queue, with four eyes where the area asks for them. The area says how a case
 * is found, which actions are refused, what a decision changes, and what it announces (CaseDecisions); the flow
 * around that is the same everywhere: a decision is a signed-in person's; one that needs four eyes is stored as a
 * proposal and takes effect, as its proposer's, only when a second member of staff approves it (four-eyes.ts); the
 * state change, the end of the review alerts, the audit entry and the webhooks commit together.
 */

/** An event a decision announces to the case's tenant. */
export type DecisionEvent = EventOf;

/** What the flow reads of a case: whose it is, and its status (a decided case that left review ends its alerts). */
interface CaseRow {
  tenant_id: string;
  status: string;
}

export interface CaseDecisions<Case extends CaseRow, Action extends string, View> {
  /** The queue the cases are in: its name is the subject of their proposals. */
  queue: AnyReviewQueue & { queue: fourEyes.FourEyesSubject };
  /** The actions that take effect only once a second member of staff approves them. */
  fourEyes: readonly Action[];
  /** The case, locked until the transaction ends; the area's 404 (or 409 for a case that takes no decision). */
  lock(tx: Transaction<DB>, caseId: string): Promise<Case>;
  /** Why the action is refused on the case as it is, if it is; checked when decided and again when approved. */
  refusal?(found: Case, action: Action): AppError | undefined;
  /** The decision's change of state, by ctx's actor (the proposer, for an approved one): the decided case. */
  record(
    tx: Transaction<DB>,
    ctx: ServiceContext,
    decision: { found: Case; action: Action; reason: string; now: Date },
  ): Promise<Case>;
  /** What the audit entry `<queue>.case_<action>` tells beside the case id, the reason and the approver. */
  auditDetails(found: Case, decided: Case, action: Action): Record<string, unknown>;
  /** The webhooks to the case's tenant, which name the reviewer by an opaque reference (reviewerReference). */
  events(decided: Case, action: Action, reviewer: string): DecisionEvent[];
  view(found: Case, now: Date): View;
}

/**
 * How a tenant's webhook names the member of staff who decided: an opaque reference, stable for the account, that
 * says nothing of who they are (not their staff id, name or email); the staff resolve it in the console. An actor
 * that is not a member of staff (the service's own jobs) is named as it is.
 */
async function reviewerReference(db: Executor, actor: string): Promise<string> {
  if (!actor.startsWith('stf_')) return actor;
  const ref = await store.reviewerRefOf(db, actor);
  if (!ref) throw new Error(`No staff account ${actor} to name in a webhook`);
  return ref;
}

/** The case with the four-eyes proposal awaiting a second member of staff, if any. */
export async function withPendingProposal<V>(
  db: Executor,
  subject: fourEyes.FourEyesSubject,
  caseId: string,
  view: V,
) {
  const pending = await fourEyes.pendingProposal(db, subject, caseId);
  return { ...view, pending_proposal: pending ? fourEyes.proposalView(pending) : null };
}

/**
 * A decision by ctx's person (the reviewer, signed in). An action that needs four eyes is stored as a proposal,
 * checked against the area's rules now; any other takes effect at once, unless a proposal awaits approval.
 */
export function decideCase<Case extends CaseRow, Action extends string, View>(
  ctx: ServiceContext,
  d: CaseDecisions<Case, Action, View>,
  caseId: string,
  action: Action,
  reason: string,
) {
  const subject = d.queue.queue;
  return withTransaction(ctx, async (tx, ctx) => {
    fourEyes.requirePerson(ctx);
    const found = await d.lock(tx, caseId);
    const refused = d.refusal?.(found, action);
    if (refused) throw refused;
    if (d.fourEyes.includes(action)) {
      await fourEyes.propose(tx, ctx, {
        subject,
        subjectId: caseId,
        tenantId: found.tenant_id,
        action,
        reason,
      });
      return withPendingProposal(tx, subject, caseId, d.view(found, ctx.clock.now()));
    }
    await fourEyes.requireNoPending(tx, subject, caseId);
    const decided = await applyDecision(tx, ctx, d, { caseId, found, action, reason, approvedBy: null });
    return withPendingProposal(tx, subject, caseId, decided);
  });
}

/** A second member of staff approves the case's proposed decision: it takes effect now, as its proposer's. */
export function approveDecision<Case extends CaseRow, Action extends string, View>(
  ctx: ServiceContext,
  d: CaseDecisions<Case, Action, View>,
  caseId: string,
) {
  const subject = d.queue.queue;
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await d.lock(tx, caseId);
    const proposal = await fourEyes.approvePending(tx, ctx, subject, caseId);
    const action = proposal.action as Action;
    // The case may have moved since the proposal (a transition closed meanwhile, say): the rules are checked again.
    const refused = d.refusal?.(found, action);
    if (refused) throw refused;
    const decider = { ...ctx, actor: proposal.proposed_by };
    const decided = await applyDecision(tx, decider, d, {
      caseId,
      found,
      action,
      reason: proposal.reason,
      approvedBy: ctx.actor,
    });
    return withPendingProposal(tx, subject, caseId, decided);
  });
}

/** A second member of staff rejects the proposal: the case awaits a decision again. */
export function rejectDecision<Case extends CaseRow, Action extends string, View>(
  ctx: ServiceContext,
  d: CaseDecisions<Case, Action, View>,
  caseId: string,
  reason: string,
) {
  const subject = d.queue.queue;
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await d.lock(tx, caseId);
    await fourEyes.rejectPending(tx, ctx, subject, caseId, reason);
    return withPendingProposal(tx, subject, caseId, d.view(found, ctx.clock.now()));
  });
}

/**
 * The decision itself, in the caller's transaction: the state change, the end of the review alerts once the case
 * no longer awaits review, the audit entry (actor, reason, request id, and the approver of a four-eyes decision) and
 * the webhooks.
 */
async function applyDecision<Case extends CaseRow, Action extends string, View>(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  d: CaseDecisions<Case, Action, View>,
  decision: { caseId: string; found: Case; action: Action; reason: string; approvedBy: string | null },
): Promise<View> {
  const { caseId, found, action, reason, approvedBy } = decision;
  const now = ctx.clock.now();
  const decided = await d.record(tx, ctx, { found, action, reason, now });
  if (!d.queue.awaiting.includes(decided.status)) await cancelReviewDeadlines(tx, d.queue.queue, caseId);
  await audit(tx, forTenant(ctx, found.tenant_id), `${d.queue.queue}.case_${action}`, {
    case_id: caseId,
    ...d.auditDetails(found, decided, action),
    reason,
    ...(approvedBy ? { approved_by: approvedBy } : {}),
  });
  const reviewer = await reviewerReference(tx, ctx.actor);
  for (const { event, data } of d.events(decided, action, reviewer)) {
    await emitEvent(tx, { tenantIds: found.tenant_id, event, data, at: now });
  }
  return d.view(decided, now);
}
