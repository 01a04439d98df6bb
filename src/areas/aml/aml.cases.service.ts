import type { Transaction } from 'kysely';
import type { Platform, TenantContext } from '../../platform/context.js';
import type { DB } from '../../platform/db/schema.js';
import { recordAudit } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { emitEvent } from '../../platform/outbox.js';
import {
  cancelReviewDeadlines,
  decodeReviewCursor,
  encodeReviewCursor,
  scheduleReviewDeadlines,
  slaBreached,
  type StillAwaitingReview,
} from '../../platform/review-deadlines.js';
import { ALLOWED_DECISIONS, DECISIONS, reviewDueAt, type DecisionAction } from './aml.case-rules.js';
import { decided as decisionEvent, flagged } from './aml.events.js';
import { AML_RULES, riskScore, sortCodes } from './aml.rules.js';
import * as store from './aml.store.js';
import {
  AWAITING_REVIEW_STATUSES,
  OPEN_CASE_STATUSES,
  type AmlCase,
  type AmlCaseStatus,
  type TripContext,
} from './aml.tables.js';
import type { Trip } from './rules/types.js';

/** Case verbs: findings added to cases, the staff's decisions, and the views of each audience. */

const unique = <T>(items: T[]) => [...new Set(items)];

export const tripContext = (trip: Trip): TripContext => ({
  rule_code: trip.rule,
  pattern_key: trip.patternKey,
  at: trip.at.toISOString(),
  transaction_ids: trip.transactionIds,
  details: trip.details,
});

/**
 * Adds async findings to each user's open case, or opens one (under_review). A pattern already reported adds
 * nothing. aml.flagged is emitted once per user and call when a case is opened or gains a rule code.
 */
export async function applyTrips(
  tx: Transaction<DB>,
  platform: Pick<Platform, 'config'>,
  tenantId: string,
  trips: Trip[],
  now: Date,
): Promise<void> {
  const byUser = new Map<string, Trip[]>();
  for (const trip of trips) byUser.set(trip.userId, [...(byUser.get(trip.userId) ?? []), trip]);
  // A fixed lock order keeps two evaluators that share users from deadlocking.
  for (const userId of [...byUser.keys()].sort()) {
    await applyUserTrips(tx, platform, tenantId, userId, byUser.get(userId)!, now);
  }
}

async function applyUserTrips(
  tx: Transaction<DB>,
  platform: Pick<Platform, 'config'>,
  tenantId: string,
  userId: string,
  trips: Trip[],
  now: Date,
) {
  await store.lockUserCases(tx, tenantId, userId);
  const open = await store.findOpenAsyncCase(tx, tenantId, userId);
  const caseId = open?.case_id ?? newId('case');
  const fresh: Trip[] = [];
  for (const trip of trips) if (await store.claimTrip(tx, tenantId, trip, caseId)) fresh.push(trip);
  if (fresh.length === 0) return;

  const rules = sortCodes([...(open?.rules_triggered ?? []), ...fresh.map((t) => t.rule)]);
  const findings = {
    rules_triggered: rules,
    risk_score: riskScore(rules),
    transaction_ids: unique([...(open?.transaction_ids ?? []), ...fresh.flatMap((t) => t.transactionIds)]),
    context: [...(open?.context ?? []), ...fresh.map(tripContext)],
    updated_at: now,
  };
  const stored = open
    ? await store.updateCaseFindings(tx, caseId, findings)
    : await store.insertCase(tx, {
        ...findings,
        case_id: caseId,
        tenant_id: tenantId,
        user_id: userId,
        status: 'under_review',
        source: 'async',
        origin: 'async',
        withdrawal_id: null,
        opened_at: now,
        due_at: reviewDueAt(now),
        decided_at: null,
        reviewer: null,
      });
  if (!open) {
    await scheduleReviewDeadlines(tx, platform, {
      queue: 'aml',
      tenantId,
      caseId,
      dueAt: stored.due_at,
    });
  }
  if (open && rules.every((code) => open.rules_triggered.includes(code))) return;
  // Codes, score and transaction ids only: no rule description or context (tipping-off).
  await emitEvent(tx, { tenantIds: tenantId, ...flagged(stored), at: now });
}

const isOpen = (status: AmlCaseStatus) => (OPEN_CASE_STATUSES as readonly string[]).includes(status);
const isAwaitingReview = (status: AmlCaseStatus) =>
  (AWAITING_REVIEW_STATUSES as readonly string[]).includes(status);

/** For the review alerts: a case still waits on a reviewer. */
export const stillAwaitingReview: StillAwaitingReview = async (tx, tenantId, caseId) => {
  const found = await store.findCase(tx, caseId);
  return found !== undefined && found.tenant_id === tenantId && isAwaitingReview(found.status);
};

/** Why a decision is refused, or undefined when ALLOWED_DECISIONS allows it. */
function refusal(found: AmlCase, action: DecisionAction): AppError | undefined {
  if (!isOpen(found.status)) {
    return new AppError(
      'case_already_closed',
      409,
      `Case ${found.case_id} is ${found.status}; it takes no further decisions`,
    );
  }
  const from = ALLOWED_DECISIONS[found.origin][action];
  if (from.length === 0) {
    return new AppError(
      'decision_not_allowed_for_origin',
      409,
      `${action} is never allowed on a case of origin ${found.origin}`,
    );
  }
  if (!from.includes(found.status)) {
    return new AppError(
      'case_transition_not_allowed',
      409,
      `${action} on a case of origin ${found.origin} is allowed from ${from.join(', ')}; case ${found.case_id} is ${found.status}`,
    );
  }
  return undefined;
}

/**
 * A staff decision, in one transaction: the status change, the webhook, the audit row (actor, reason, request id),
 * and the end of the review alerts once the case no longer awaits review.
 */
export async function decideCase(
  platform: Platform,
  caseId: string,
  input: { action: DecisionAction; reviewer: string; reason: string },
  requestId: string,
): Promise<AmlCase> {
  return platform.db.transaction().execute(async (tx) => {
    const found = await store.findCase(tx, caseId, true);
    if (!found) throw new AppError('case_not_found', 404, `No AML case ${caseId}`);
    const refused = refusal(found, input.action);
    if (refused) throw refused;
    const decision = DECISIONS[input.action];
    const now = platform.clock.now();
    const leavesReview = !isAwaitingReview(decision.to);
    const decided = await store.setCaseStatus(tx, caseId, {
      status: decision.to,
      reviewer: input.reviewer,
      reason: input.reason,
      at: now,
      reviewedAt: found.reviewed_at ?? (leavesReview ? now : null),
    });
    if (leavesReview) await cancelReviewDeadlines(tx, 'aml', caseId);
    await emitEvent(tx, {
      tenantIds: decided.tenant_id,
      ...decisionEvent(input.action, decided, input.reviewer),
      at: now,
    });
    await recordAudit(tx, {
      tenantId: decided.tenant_id,
      actor: input.reviewer,
      action: `aml.case_${input.action}`,
      requestId,
      details: {
        case_id: caseId,
        origin: found.origin,
        from: found.status,
        to: decided.status,
        reason: input.reason,
      },
      at: now,
    });
    return decided;
  });
}

/** The tenant's view of a user's cases: codes and scores, never descriptions or context. */
export async function casesForUser(platform: Platform, ctx: TenantContext, userId: string) {
  const cases = await store.casesOfUser(platform.db, ctx.tenant.tenant_id, userId);
  return {
    user_id: userId,
    open_cases: cases.filter((c) => isOpen(c.status)).length,
    cases: cases.map((c) => ({
      case_id: c.case_id,
      opened_at: c.opened_at,
      status: c.status,
      rules_triggered: c.rules_triggered,
      risk_score: c.risk_score,
    })),
  };
}

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

export async function staffCaseDetail(platform: Platform, caseId: string) {
  const found = await store.findCase(platform.db, caseId);
  if (!found) throw new AppError('case_not_found', 404, `No AML case ${caseId}`);
  const [transactions, screen] = await Promise.all([
    store.eventsByTransaction(platform.db, found.tenant_id, found.transaction_ids),
    found.withdrawal_id ? store.findScreen(platform.db, found.tenant_id, found.withdrawal_id) : undefined,
  ]);
  return { ...staffCaseView(found, platform.clock.now()), transactions, screen: screen ?? null };
}

/**
 * The review queue: oldest-due first, keyset-paginated (cursor: the last case of the previous page), so a backlog
 * of any size is walked to its end. overdue: awaiting review and at or past the due time.
 */
export async function staffCases(
  platform: Platform,
  filter: {
    status?: AmlCaseStatus | undefined;
    tenant_id?: string | undefined;
    user_id?: string | undefined;
    overdue?: boolean | undefined;
    cursor?: string | undefined;
    limit: number;
  },
) {
  const now = platform.clock.now();
  const cases = await store.listCases(platform.db, {
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
