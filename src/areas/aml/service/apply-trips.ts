import type { Transaction } from 'kysely';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { newId } from '../../../platform/ids.js';
import { emitEvent } from '../../../platform/outbox.js';
import { scheduleReviewDeadlines } from '../../../platform/review-deadlines.js';
import { ASYNC_CASE_SOURCE, OPENING_STATUS, reviewDueAt } from '../aml.case-rules.js';
import * as store from '../aml.cases.store.js';
import { flagged } from '../aml.events.js';
import { riskScore, sortCodes } from '../aml.rules.js';
import type { TripContext } from '../aml.tables.js';
import type { Trip } from '../rules/types.js';

const unique = <T>(items: T[]) => [...new Set(items)];

/** A trip as staff see it in a case's context. */
export const tripContext = (trip: Trip): TripContext => ({
  rule_code: trip.rule,
  pattern_key: trip.patternKey,
  at: trip.at.toISOString(),
  transaction_ids: trip.transactionIds,
  details: trip.details,
});

/**
 * Adds async findings to each user's open case, or opens one (under_review), in the evaluation's transaction. A
 * pattern already reported adds nothing. aml.flagged is emitted once per user and call when a case is opened or
 * gains a rule code.
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
        status: OPENING_STATUS,
        source: ASYNC_CASE_SOURCE,
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
