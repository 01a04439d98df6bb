import type { Transaction } from 'kysely';
import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import type { Executor } from '../../../platform/db/database.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import * as fourEyes from '../../../platform/four-eyes.js';
import {
  cancelReviewDeadlines,
  decodeReviewCursor,
  encodeReviewCursor,
  slaBreached,
} from '../../../platform/review-deadlines.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { reviewerReference } from '../../../staff/index.js';
import type { AssigneeFilter } from '../../../staff/index.js';
import { emitDecision } from '../sanctions.events.js';
import * as dismissals from '../sanctions.dismissals.store.js';
import * as lists from '../lists/lists.store.js';
import { dismissalView, rememberDismissals } from './dismissals.js';
import { AWAITING_REVIEW, DECISIONS, FOUR_EYES_DECISIONS, type Decision } from '../sanctions.rules.js';
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
export async function listCases(ctx: ServiceContext, filter: CasesQuery & { assignee?: AssigneeFilter }) {
  const now = ctx.clock.now();
  const rows = await store.listCases(
    ctx.db,
    {
      limit: filter.limit,
      status: filter.status,
      tenant_id: filter.tenant_id,
      overdue: filter.overdue,
      after: filter.cursor ? decodeReviewCursor(filter.cursor) : undefined,
      assignee: filter.assignee,
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

/**
 * One case, with what the reviewer needs beside the matches: the matched entities a later list version removed
 * (a delisting never decides a case), and the earlier dismissals of the same entities for this player.
 */
export async function findCase(ctx: ServiceContext, caseId: string) {
  const found = await store.findCase(ctx.db, caseId);
  if (!found) throw new AppError('case_not_found', `No sanctions case ${caseId}`);
  const pairs = found.matches.map((m) => ({ list: m.list, entity_id: m.entity_id }));
  const [removals, earlier] = await Promise.all([
    lists.delistings(ctx.db, pairs),
    dismissals.dismissalsBefore(ctx.db, found.screen_id, pairs, found.opened_at),
  ]);
  // The latest removal of each entity: delistings come newest first, and a later entry of a Map key wins.
  const delisted = [...new Map(removals.toReversed().map((r) => [`${r.list}/${r.entity_id}`, r])).values()];
  return withProposal(ctx.db, {
    ...staffCaseView(found, ctx.clock.now()),
    delisted,
    earlier_dismissals: earlier.map(dismissalView),
  });
}

/**
 * What the console shows beside a case: the screened person as the screen stored them, and the cases before and
 * after it in the queue of hits awaiting review (oldest due first).
 */
export async function caseSurroundings(ctx: ServiceContext, found: SanctionsCase) {
  const [screen, neighbours] = await Promise.all([
    store.findScreen(ctx.db, found.tenant_id, found.user_id),
    store.neighbourCases(ctx.db, { dueAt: found.due_at, caseId: found.case_id }, AWAITING_REVIEW),
  ]);
  const person = screen && {
    first_name: screen.first_name,
    last_name: screen.last_name,
    date_of_birth: screen.date_of_birth,
    nationality: screen.nationality,
    checked_at: screen.checked_at,
    vendor: screen.vendor,
  };
  return { person: person ?? null, ...neighbours };
}

async function withProposal<C extends { case_id: string }>(db: Executor, view: C) {
  const pending = await fourEyes.pendingProposal(db, 'sanctions', view.case_id);
  return { ...view, pending_proposal: pending ? fourEyes.proposalView(pending) : null };
}

async function lockAwaitingCase(tx: Executor, caseId: string) {
  const found = await store.lockCase(tx, caseId);
  if (!found) throw new AppError('case_not_found', `No sanctions case ${caseId}`);
  if (found.status !== AWAITING_REVIEW) {
    throw new AppError('case_already_decided', `Case ${caseId} was already ${found.status}`);
  }
  return found;
}

/**
 * A decision by ctx's person (the reviewer, signed in), from hit_review_pending only. cleared lifts the holds (sanctions.cleared)
 * at once. confirmed is a four-eyes decision: it is stored as a proposal, and only a second member of staff's
 * approval (approveDecision) keeps the holds and freezes the account (sanctions.confirmed, then
 * sanctions.account_frozen).
 */
export async function decideCase(
  ctx: ServiceContext,
  caseId: string,
  input: Pick<DecisionRequest, 'decision' | 'reason'>,
) {
  return withTransaction(ctx, async (tx, ctx) => {
    fourEyes.requirePerson(ctx);
    const found = await lockAwaitingCase(tx, caseId);
    if (FOUR_EYES_DECISIONS.includes(input.decision)) {
      await fourEyes.propose(tx, ctx, {
        subject: 'sanctions',
        subjectId: caseId,
        tenantId: found.tenant_id,
        action: input.decision,
        reason: input.reason,
      });
      return withProposal(tx, staffCaseView(found, ctx.clock.now()));
    }
    await fourEyes.requireNoPending(tx, 'sanctions', caseId);
    return withProposal(tx, await applyDecision(tx, ctx, found, input.decision, input.reason, null));
  });
}

/** A second member of staff approves the case's proposed decision: it takes effect now, as its proposer's. */
export function approveDecision(ctx: ServiceContext, caseId: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockAwaitingCase(tx, caseId);
    const proposal = await fourEyes.approvePending(tx, ctx, 'sanctions', caseId);
    const decider = { ...ctx, actor: proposal.proposed_by };
    const decision = proposal.action as Decision;
    return withProposal(tx, await applyDecision(tx, decider, found, decision, proposal.reason, ctx.actor));
  });
}

/** A second member of staff rejects the proposal: the hit awaits a decision again. */
export function rejectDecision(ctx: ServiceContext, caseId: string, reason: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockAwaitingCase(tx, caseId);
    await fourEyes.rejectPending(tx, ctx, 'sanctions', caseId, reason);
    return withProposal(tx, staffCaseView(found, ctx.clock.now()));
  });
}

/** The decision itself: status, holds, the end of the review alerts, the audit row and the webhooks, together. */
async function applyDecision(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  found: SanctionsCase,
  decision: Decision,
  reason: string,
  approvedBy: string | null,
) {
  const caseId = found.case_id;
  const now = ctx.clock.now();
  const { transactions_held } = DECISIONS[decision];
  const decided = await store.recordDecision(tx, caseId, {
    status: decision,
    decided_at: now,
    reviewer: ctx.actor,
    decision_reason: reason,
  });
  await store.setScreenStatus(tx, found.screen_id, { status: decision, transactions_held, updated_at: now });
  if (decision === 'cleared') {
    // The case's matches were screened with the details the screen holds: a case awaiting review cannot be corrected.
    const screen = await store.findScreenById(tx, found.screen_id);
    await rememberDismissals(tx, found, screen, ctx.actor, now);
  }
  await cancelReviewDeadlines(tx, 'sanctions', caseId);
  await audit(tx, forTenant(ctx, found.tenant_id), `sanctions.case_${decision}`, {
    case_id: caseId,
    user_id: found.user_id,
    decision,
    reason,
    ...(approvedBy ? { approved_by: approvedBy } : {}),
  });
  // Tenants learn an opaque reference of the reviewer, never who they are (the staff see the case).
  const reviewer = await reviewerReference(tx, ctx.actor);
  const data = { case_id: caseId, user_id: found.user_id, reviewer, transactions_held };
  await emitDecision(tx, found.tenant_id, decision, data, now);
  return staffCaseView(decided, now);
}

/** Whether the case still awaits review: its "due soon" and "overdue" alerts are raised only then. */
export async function caseAwaitingReview(tx: Executor, tenantId: string, caseId: string): Promise<boolean> {
  const found = await store.findCaseStatus(tx, tenantId, caseId);
  return found?.status === AWAITING_REVIEW;
}
