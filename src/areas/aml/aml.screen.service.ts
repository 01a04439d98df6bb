import type { Platform, TenantContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors.js';
import { insertOnce, requestFingerprint } from '../../platform/idempotency.js';
import { newId } from '../../platform/ids.js';
import { tripContext } from './aml.cases.service.js';
import { toUsdCents } from '../../platform/fx.js';
import { decisionFor, RULE_CODES, riskScore, sortCodes } from './aml.rules.js';
import type { ScreenRequest } from './aml.schemas.js';
import { insertCase } from './aml.store.js';
import type { AmlScreen } from './aml.tables.js';
import { largeWithdrawal } from './rules/r001-large-withdrawal.js';
import { velocity } from './rules/r002-velocity.js';
import { structuring } from './rules/r003-structuring.js';
import { minimalPlayNow } from './rules/r004-minimal-play.js';
import { recordedRoundTrips, roundTripping } from './rules/r005-round-tripping.js';
import { recordedMultiAccount } from './rules/r006-multi-account.js';
import { geographicAnomaly } from './rules/r007-geographic-anomaly.js';
import { dormantReactivation } from './rules/r008-dormant-reactivation.js';
import { aggregateThreshold } from './rules/r009-aggregate-threshold.js';
import { runChecks } from './rules/checks.js';
import type { HistoryPoint, Trip } from './rules/types.js';

/** Generic wording a tenant may show the player: it names no rule, score or reason (tipping-off). */
export const HOLD_MESSAGE = 'Your withdrawal is under review.';
export const REJECT_MESSAGE = 'Your withdrawal could not be processed. Please contact support.';
export const ESTIMATED_REVIEW_TIME = '48 hours';

/**
 * Every rule at this moment (T = now): R-001 on the withdrawal under screen, the rest on the user's recorded
 * history. The withdrawal itself counts only for R-001 and as R-005's withdrawal leg (its payment method is not an
 * R-006 fingerprint, its amount not R-009 activity); if the tenant also sent it as an event (same transaction id),
 * that event is left out of the history so it is not counted twice.
 */
export async function screenTrips(
  db: Executor,
  input: {
    tenantId: string;
    userId: string;
    withdrawalId: string;
    usdCents: number;
    now: Date;
  },
): Promise<Trip[]> {
  const p: HistoryPoint = {
    tenantId: input.tenantId,
    userId: input.userId,
    at: input.now,
    excludeTransactionId: input.withdrawalId,
  };
  const history = await runChecks(db, [
    velocity(p),
    structuring(p),
    minimalPlayNow(p),
    roundTripping(p, {
      type: 'withdrawal',
      transactionId: input.withdrawalId,
      usdCents: input.usdCents,
      lookAhead: false,
    }),
    recordedRoundTrips(p),
    recordedMultiAccount(p),
    geographicAnomaly(p),
    dormantReactivation(p),
    aggregateThreshold(p),
  ]);
  const withdrawal = {
    userId: input.userId,
    withdrawalId: input.withdrawalId,
    usdCents: input.usdCents,
    at: input.now,
  };
  return [...largeWithdrawal(withdrawal), ...history];
}

/** The response for a stored screen: a repeat of the request gets exactly what the first one got. */
export function screenView(screen: AmlScreen) {
  const base = {
    decision: screen.decision,
    user_id: screen.user_id,
    withdrawal_id: screen.withdrawal_id,
    rules_triggered: screen.rules_triggered,
    risk_score: screen.risk_score,
  };
  if (screen.decision === 'allow') return { ...base, rules_evaluated: [...RULE_CODES] };
  const case_id = screen.case_id ?? undefined;
  if (screen.decision === 'hold') {
    return { ...base, case_id, user_message: HOLD_MESSAGE, estimated_review_time: ESTIMATED_REVIEW_TIME };
  }
  return { ...base, case_id, user_message: REJECT_MESSAGE };
}

/**
 * The real-time check. hold and reject open a case (under_review, source realtime) for compliance; no event is
 * sent until compliance decides. Idempotent on (tenant, withdrawal_id): the same request gets the original
 * answer, a different one 409 withdrawal_already_screened. A repeat is found by the insert, not read first: the
 * first screen of a withdrawal, the common case, costs one round trip fewer.
 */
export async function screenWithdrawal(platform: Platform, ctx: TenantContext, input: ScreenRequest) {
  const tenantId = ctx.tenant.tenant_id;
  const requestHash = requestFingerprint({ ...input });
  const conflict = () =>
    new AppError(
      'withdrawal_already_screened',
      409,
      `Withdrawal ${input.withdrawal_id} was already screened with different details; the original decision stands`,
    );
  const usdCents = await toUsdCents(
    platform.db,
    input.amount_cents,
    input.currency,
    () =>
      new AppError(
        'invalid_event',
        400,
        `No exchange rate for ${input.currency}; the withdrawal cannot be screened`,
      ),
  );
  const now = platform.clock.now();
  const trips = await screenTrips(platform.db, {
    tenantId,
    userId: input.user_id,
    withdrawalId: input.withdrawal_id,
    usdCents,
    now,
  });
  const rules = sortCodes(trips.map((t) => t.rule));
  const score = riskScore(rules);
  const decision = decisionFor(score);
  const caseId = decision === 'allow' ? null : newId('case');

  const values = {
    tenant_id: tenantId,
    withdrawal_id: input.withdrawal_id,
    user_id: input.user_id,
    amount_cents: input.amount_cents,
    currency: input.currency,
    usd_cents: usdCents,
    payment_method: input.payment_method,
    destination_country: input.destination_country,
    decision,
    risk_score: score,
    rules_triggered: JSON.stringify(rules),
    case_id: caseId,
    request_hash: requestHash,
    screened_at: now,
  };
  const options = { table: 'aml_screens' as const, key: ['tenant_id', 'withdrawal_id'], values, conflict };
  // allow writes one row; hold and reject also open a case, in the same transaction.
  if (!caseId) return screenView((await insertOnce<AmlScreen>(platform.db, options)).row);
  return platform.db.transaction().execute(async (tx) => {
    const { row, created } = await insertOnce<AmlScreen>(tx, options);
    if (created) {
      await insertCase(tx, {
        case_id: caseId,
        tenant_id: tenantId,
        user_id: input.user_id,
        status: 'under_review',
        source: 'realtime',
        withdrawal_id: input.withdrawal_id,
        rules_triggered: rules,
        risk_score: score,
        transaction_ids: [...new Set(trips.flatMap((t) => t.transactionIds))],
        context: trips.map(tripContext),
        opened_at: now,
        updated_at: now,
        decided_at: null,
        reviewer: null,
      });
    }
    return screenView(row);
  });
}
