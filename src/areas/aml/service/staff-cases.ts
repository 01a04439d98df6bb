import { withPendingProposal } from '../../../platform/case-work/decisions.js';
import { listReviewQueue, queueNeighbours, slaBreached } from '../../../platform/case-work/queue.js';
import type { ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import * as store from '../aml.cases.store.js';
import { AML_REVIEW_QUEUE } from '../aml.review-queue.js';
import { AML_RULES } from '../aml.rules.js';
import { eventsByTransaction, findScreen } from '../aml.store.js';
import type { AmlCase, AmlCaseStatus } from '../aml.tables.js';

/** The staff's view: adds the catalogue's descriptions of the case's rules (the back office is the only place). */
export function staffCaseView(found: AmlCase, now: Date) {
  return {
    ...found,
    // reviewed_at is set when a case leaves review (null while it awaits review): the platform's rule applies.
    sla_breached: slaBreached(found.due_at, found.reviewed_at, now),
    rules: found.rules_triggered.map((code) => {
      const { pattern, description, severity, mode, counts } = AML_RULES[code];
      return { code, pattern, description, severity, mode, counts };
    }),
  };
}

/** One case with the events it names and the screen that opened it, if any. */
export async function staffCaseDetail(ctx: ServiceContext, caseId: string) {
  const found = await store.findCase(ctx.db, caseId);
  if (!found) throw new AppError('case_not_found', `No AML case ${caseId}`);
  const [transactions, screen, view] = await Promise.all([
    eventsByTransaction(ctx.db, found.tenant_id, found.transaction_ids),
    found.withdrawal_id ? findScreen(ctx.db, found.tenant_id, found.withdrawal_id) : undefined,
    withPendingProposal(ctx.db, 'aml', caseId, staffCaseView(found, ctx.clock.now())),
  ]);
  return { ...view, transactions, screen: screen ?? null };
}

/**
 * The review queue: oldest-due first, keyset-paginated (cursor: the last case of the previous page), so a backlog
 * of any size is walked to its end. overdue: awaiting review and at or past the due time.
 */
export async function staffCases(
  ctx: ServiceContext,
  filter: {
    status?: AmlCaseStatus | undefined;
    tenant_id?: string | undefined;
    user_id?: string | undefined;
    overdue?: boolean | undefined;
    cursor?: string | undefined;
    limit: number;
  },
) {
  // Only overdue=true narrows the AML queue: overdue=false lists every case.
  const page = await listReviewQueue(ctx, AML_REVIEW_QUEUE, {
    ...filter,
    overdue: filter.overdue || undefined,
  });
  const now = ctx.clock.now();
  return { cases: page.cases.map((c) => staffCaseView(c, now)), next_cursor: page.next_cursor };
}

/** How many of a user's latest events a case page shows. */
export const TIMELINE_EVENTS = 50;

/**
 * What the console shows beside a case: the user's latest events in the tenant, and the cases before and after it
 * in the queue of cases awaiting review (oldest due first).
 */
export async function caseSurroundings(ctx: ServiceContext, found: AmlCase) {
  const [events, neighbours] = await Promise.all([
    store.recentEventsOfUser(ctx.db, found.tenant_id, found.user_id, TIMELINE_EVENTS),
    queueNeighbours(ctx, AML_REVIEW_QUEUE, found),
  ]);
  return { events, ...neighbours };
}
