import type { Transaction } from 'kysely';
import * as decisions from '../../../platform/case-work/decisions.js';
import { listReviewQueue, queueNeighbours, slaBreached } from '../../../platform/case-work/queue.js';
import type { ServiceContext } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import { decisionEvents } from '../sanctions.events.js';
import * as dismissals from '../sanctions.dismissals.store.js';
import * as lists from '../lists/lists.store.js';
import { SANCTIONS_REVIEW_QUEUE } from '../sanctions.review-queue.js';
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
export async function listCases(ctx: ServiceContext, filter: CasesQuery) {
  const page = await listReviewQueue(ctx, SANCTIONS_REVIEW_QUEUE, filter);
  const now = ctx.clock.now();
  return { cases: page.cases.map((c) => staffCaseView(c, now)), next_cursor: page.next_cursor };
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
  return decisions.withPendingProposal(ctx.db, 'sanctions', caseId, {
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
    queueNeighbours(ctx, SANCTIONS_REVIEW_QUEUE, found),
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

async function lockAwaitingCase(tx: Transaction<DB>, caseId: string) {
  const found = await store.lockCase(tx, caseId);
  if (!found) throw new AppError('case_not_found', `No sanctions case ${caseId}`);
  if (found.status !== AWAITING_REVIEW) {
    throw new AppError('case_already_decided', `Case ${caseId} was already ${found.status}`);
  }
  return found;
}

/**
 * How a reviewer decides a hit (the flow is the platform's, src/platform/case-work/decisions.ts), from
 * hit_review_pending only. cleared lifts the holds (sanctions.cleared) at once and remembers the dismissed matches.
 * confirmed is a four-eyes decision: only a second member of staff's approval keeps the holds and freezes the
 * account (sanctions.confirmed, then sanctions.account_frozen).
 */
const SANCTIONS_DECISIONS: decisions.CaseDecisions<
  SanctionsCase,
  Decision,
  ReturnType<typeof staffCaseView>
> = {
  queue: SANCTIONS_REVIEW_QUEUE,
  fourEyes: FOUR_EYES_DECISIONS,
  lock: lockAwaitingCase,
  async record(tx, ctx, { found, action: decision, reason, now }) {
    const decided = await store.recordDecision(tx, found.case_id, {
      status: decision,
      decided_at: now,
      reviewer: ctx.actor,
      decision_reason: reason,
    });
    const { transactions_held } = DECISIONS[decision];
    await store.setScreenStatus(tx, found.screen_id, {
      status: decision,
      transactions_held,
      updated_at: now,
    });
    if (decision === 'cleared') {
      // The case's matches were screened with the details the screen holds: a case awaiting review cannot be corrected.
      const screen = await store.findScreenById(tx, found.screen_id);
      await rememberDismissals(tx, found, screen, ctx.actor, now);
    }
    return decided;
  },
  auditDetails: (found, _decided, decision) => ({ user_id: found.user_id, decision }),
  events: (decided, decision, reviewer) =>
    decisionEvents(decision, {
      case_id: decided.case_id,
      user_id: decided.user_id,
      reviewer,
      transactions_held: DECISIONS[decision].transactions_held,
    }),
  view: staffCaseView,
};

/** A decision by ctx's person (the reviewer, signed in); a confirmation is only proposed. */
export const decideCase = (
  ctx: ServiceContext,
  caseId: string,
  input: Pick<DecisionRequest, 'decision' | 'reason'>,
) => decisions.decideCase(ctx, SANCTIONS_DECISIONS, caseId, input.decision, input.reason);

/** A second member of staff approves the case's proposed decision: it takes effect now, as its proposer's. */
export const approveDecision = (ctx: ServiceContext, caseId: string) =>
  decisions.approveDecision(ctx, SANCTIONS_DECISIONS, caseId);

/** A second member of staff rejects the proposal: the hit awaits a decision again. */
export const rejectDecision = (ctx: ServiceContext, caseId: string, reason: string) =>
  decisions.rejectDecision(ctx, SANCTIONS_DECISIONS, caseId, reason);
