import { sql } from 'kysely';
import { recordAudit } from '../../platform/audit.js';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { emitEvent } from '../../platform/outbox.js';
import {
  cancelReviewDeadlines,
  decodeReviewCursor,
  encodeReviewCursor,
  registerReviewDeadlines,
  slaBreached,
} from '../../platform/review-deadlines.js';
import type { CasesQuery, DecisionRequest } from './sanctions.schemas.js';
import type { SanctionsCase } from './sanctions.tables.js';

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
export async function listCases(platform: Platform, filter: CasesQuery) {
  const now = platform.clock.now();
  let query = platform.db
    .selectFrom('sanctions_cases')
    .selectAll()
    .orderBy('due_at')
    .orderBy('case_id')
    .limit(filter.limit + 1);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.tenant_id) query = query.where('tenant_id', '=', filter.tenant_id);
  if (filter.overdue === true) {
    query = query.where('status', '=', 'hit_review_pending').where('due_at', '<=', now);
  } else if (filter.overdue === false) {
    query = query.where((eb) => eb.or([eb('status', '!=', 'hit_review_pending'), eb('due_at', '>', now)]));
  }
  if (filter.cursor) {
    const { dueAt, caseId } = decodeReviewCursor(filter.cursor);
    query = query.where(sql<boolean>`(due_at, case_id) > (${dueAt.toISOString()}::timestamptz, ${caseId})`);
  }
  const rows = await query.execute();
  const page = rows.slice(0, filter.limit);
  return {
    cases: page.map((c) => staffCaseView(c, now)),
    next_cursor:
      rows.length > filter.limit ? encodeReviewCursor(page.at(-1)!.due_at, page.at(-1)!.case_id) : null,
  };
}

export async function findCase(platform: Platform, caseId: string) {
  const found = await platform.db
    .selectFrom('sanctions_cases')
    .selectAll()
    .where('case_id', '=', caseId)
    .executeTakeFirst();
  if (!found) throw new AppError('case_not_found', 404, `No sanctions case ${caseId}`);
  return staffCaseView(found, platform.clock.now());
}

/**
 * A reviewer's decision, from hit_review_pending only. cleared lifts the holds (sanctions.cleared); confirmed
 * keeps them and freezes the account (sanctions.confirmed, then sanctions.account_frozen). The audit row (reviewer,
 * reason, request id) and the end of the case's review alerts commit with the decision.
 */
export async function decideCase(
  platform: Platform,
  caseId: string,
  input: DecisionRequest,
  requestId: string,
) {
  return platform.db.transaction().execute(async (tx) => {
    const found = await tx
      .selectFrom('sanctions_cases')
      .selectAll()
      .where('case_id', '=', caseId)
      .forUpdate()
      .executeTakeFirst();
    if (!found) throw new AppError('case_not_found', 404, `No sanctions case ${caseId}`);
    if (found.status !== 'hit_review_pending') {
      throw new AppError('case_already_decided', 409, `Case ${caseId} was already ${found.status}`);
    }
    const now = platform.clock.now();
    const cleared = input.decision === 'cleared';
    const decided = await tx
      .updateTable('sanctions_cases')
      .set({
        status: input.decision,
        decided_at: now,
        reviewer: input.reviewer,
        decision_reason: input.reason,
      })
      .where('case_id', '=', caseId)
      .returningAll()
      .executeTakeFirstOrThrow();
    // Cleared lifts the holds; confirmed keeps everything held: the account is terminated and funds frozen.
    await tx
      .updateTable('sanctions_screens')
      .set({ status: input.decision, transactions_held: !cleared, updated_at: now })
      .where('screen_id', '=', found.screen_id)
      .execute();
    await cancelReviewDeadlines(tx, 'sanctions', caseId);
    await recordAudit(tx, {
      tenantId: found.tenant_id,
      actor: input.reviewer,
      action: `sanctions.case_${input.decision}`,
      requestId,
      details: { case_id: caseId, user_id: found.user_id, decision: input.decision, reason: input.reason },
      at: now,
    });
    // sanctions.cleared's data exactly as the spec; the confirmed events share it.
    const data = {
      case_id: caseId,
      user_id: found.user_id,
      reviewer: input.reviewer,
      transactions_held: !cleared,
    };
    const tenantIds = found.tenant_id;
    if (cleared) {
      await emitEvent(tx, { tenantIds, event: 'sanctions.cleared', data, at: now });
    } else {
      await emitEvent(tx, { tenantIds, event: 'sanctions.confirmed', data, at: now });
      await emitEvent(tx, {
        tenantIds,
        event: 'sanctions.account_frozen',
        data: { ...data, funds_frozen: true },
        at: now,
      });
    }
    return staffCaseView(decided, now);
  });
}

/** The "due soon" and "overdue" alerts of sanctions hits; a decided case raises neither. */
export function registerSanctionsReviewDeadlines(platform: Platform): void {
  registerReviewDeadlines(platform, 'sanctions', async (tx, tenantId, caseId) => {
    const found = await tx
      .selectFrom('sanctions_cases')
      .select('status')
      .where('tenant_id', '=', tenantId)
      .where('case_id', '=', caseId)
      .executeTakeFirst();
    return found?.status === 'hit_review_pending';
  });
}
