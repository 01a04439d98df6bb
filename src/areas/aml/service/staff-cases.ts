import type { ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { decodeReviewCursor, encodeReviewCursor, slaBreached } from '../../../platform/review-deadlines.js';
import * as store from '../aml.cases.store.js';
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
  if (!found) throw new AppError('case_not_found', 404, `No AML case ${caseId}`);
  const [transactions, screen] = await Promise.all([
    eventsByTransaction(ctx.db, found.tenant_id, found.transaction_ids),
    found.withdrawal_id ? findScreen(ctx.db, found.tenant_id, found.withdrawal_id) : undefined,
  ]);
  return { ...staffCaseView(found, ctx.clock.now()), transactions, screen: screen ?? null };
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
  const now = ctx.clock.now();
  const cases = await store.listCases(ctx.db, {
    status: filter.status,
    tenantId: filter.tenant_id,
    userId: filter.user_id,
    overdueAt: filter.overdue ? now : undefined,
    after: filter.cursor ? decodeReviewCursor(filter.cursor) : undefined,
    limit: filter.limit,
  });
  const last = cases.length === filter.limit ? cases[cases.length - 1] : undefined;
  return {
    cases: cases.map((c) => staffCaseView(c, now)),
    next_cursor: last ? encodeReviewCursor(last.due_at, last.case_id) : null,
  };
}
