import type { Platform, TenantContext } from '../../../platform/context.js';
import type { RowOf } from '../../../platform/db/precompiled.js';
import { databaseGroupCommit } from '../../../platform/group-commit.js';
import { AppError } from '../../../platform/errors.js';
import { insertOnce, requestFingerprint } from '../../../platform/idempotency.js';
import { newId } from '../../../platform/ids.js';
import { tripContext } from './apply-trips.js';
import { minorScale, requireFxRate, usdCentsSql } from '../../../platform/fx.js';
import { decisionFor, RULE_CODES, riskScore, sortCodes } from '../aml.rules.js';
import type { ScreenRequest } from '../aml.schemas.js';
import { OPENING_STATUS, reviewDueAt } from '../aml.case-rules.js';
import { insertScreen, type ScreenCase } from '../statements/aml-screen.js';
import type { AmlScreen } from '../aml.tables.js';
import { largeWithdrawal } from '../rules/r001-large-withdrawal.js';
import { velocity } from '../rules/r002-velocity.js';
import { structuring } from '../rules/r003-structuring.js';
import { minimalPlayNow } from '../rules/r004-minimal-play.js';
import { recordedRoundTrips, roundTripping } from '../rules/r005-round-tripping.js';
import { recordedMultiAccount } from '../rules/r006-multi-account.js';
import { geographicAnomaly } from '../rules/r007-geographic-anomaly.js';
import { dormantReactivation } from '../rules/r008-dormant-reactivation.js';
import { aggregateThreshold } from '../rules/r009-aggregate-threshold.js';
import { precompiledChecks } from '../statements/checks.js';
import type { HistoryPoint, Trip } from '../rules/types.js';

/** Generic wording a tenant may show the player: it names no rule, score or reason (tipping-off). */
export const HOLD_MESSAGE = 'Your withdrawal is under review.';
export const REJECT_MESSAGE = 'Your withdrawal could not be processed. Please contact support.';
export const ESTIMATED_REVIEW_TIME = '48 hours';

/** What the history rules of a screen read, with PostgreSQL types: concurrent screens send one array of each. */
const SCREEN_POINT = {
  tenantId: 'text',
  userId: 'text',
  withdrawalId: 'text',
  amountCents: 'bigint',
  currency: 'text',
  minorScale: 'integer',
  now: 'timestamptz',
} as const;

type ScreenPoint = RowOf<typeof SCREEN_POINT>;

/**
 * The withdrawal in USD cents, computed by the history read from the rate in force (usdCentsSql): a screen not in
 * USD costs no round trip of its own for its rate.
 */
const USD_CENTS = {
  usdCents: (sent: ScreenPoint) => usdCentsSql(sent.amountCents, sent.currency, sent.minorScale),
};

/**
 * The history rules at this moment (T = now), on the user's recorded history. The withdrawal itself counts only for
 * R-001 and as R-005's withdrawal leg (its payment method is not an R-006 fingerprint, its amount not R-009
 * activity); if the tenant also sent it as an event (same transaction id), that event is left out of the history
 * so it is not counted twice. Compiled once: every screen runs the same prepared statement, and the screens that
 * arrive while one read is in flight are read together in the next (one statement, one plan started, for all).
 */
const historyTrips = precompiledChecks<typeof SCREEN_POINT, { usdCents: 'bigint' }>(
  SCREEN_POINT,
  (s) => {
    const p: HistoryPoint = {
      tenantId: s.tenantId,
      userId: s.userId,
      at: s.now,
      excludeTransactionId: s.withdrawalId,
    };
    const leg = {
      type: 'withdrawal',
      transactionId: s.withdrawalId,
      usdCents: s.usdCents,
      lookAhead: false,
    } as const;
    return [
      velocity(p),
      structuring(p),
      minimalPlayNow(p),
      roundTripping(p, leg),
      recordedRoundTrips(p),
      recordedMultiAccount(p),
      geographicAnomaly(p),
      dormantReactivation(p),
      aggregateThreshold(p),
    ];
  },
  USD_CENTS,
);

/** Screens arriving together read their histories in one statement. */
export const amlScreenHistoryGroupCommit = (db: Platform['db'], config: Platform['config']) =>
  databaseGroupCommit(config, (points: ScreenPoint[]) => historyTrips(db, points));

declare module '../../../platform/group-commit.js' {
  interface GroupCommits {
    amlScreenHistory: ReturnType<typeof amlScreenHistoryGroupCommit>;
  }
}

/**
 * Every rule at this moment: R-001 on the withdrawal under screen, the rest on the user's recorded history; with the
 * withdrawal's amount in USD cents.
 */
async function screenTrips(
  platform: Platform,
  input: ScreenPoint,
): Promise<{ trips: Trip[]; usdCents: number }> {
  const { trips, point } = await platform.groupCommits.amlScreenHistory.submit(input);
  const withdrawal = {
    userId: input.userId,
    withdrawalId: input.withdrawalId,
    usdCents: point.usdCents,
    at: input.now,
  };
  return { trips: [...largeWithdrawal(withdrawal), ...trips], usdCents: point.usdCents };
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
 * The real-time check. hold and reject open a case (under_review, origin screen_hold or screen_reject, due in 48
 * hours, with its review alerts) for compliance; no event is sent until compliance decides. Idempotent on (tenant, withdrawal_id): the same request gets the original
 * answer, a different one 409 withdrawal_already_screened. The screen and its case are written by one statement,
 * and a repeat is found by that insert, not read first: a first screen, the common case, reads the history in one
 * round trip and writes in one more.
 */
export async function screenWithdrawal(platform: Platform, ctx: TenantContext, input: ScreenRequest) {
  const tenantId = ctx.tenantId;
  const requestHash = requestFingerprint({ ...input });
  const conflict = () =>
    new AppError(
      'withdrawal_already_screened',
      `Withdrawal ${input.withdrawal_id} was already screened with different details; the original decision stands`,
    );
  await requireFxRate(
    ctx.db,
    input.currency,
    () =>
      new AppError(
        'invalid_event',
        `No exchange rate for ${input.currency}; the withdrawal cannot be screened`,
      ),
  );
  const now = ctx.clock.now();
  const { trips, usdCents } = await screenTrips(platform, {
    tenantId,
    userId: input.user_id,
    withdrawalId: input.withdrawal_id,
    amountCents: input.amount_cents,
    currency: input.currency,
    minorScale: minorScale(input.currency),
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
  const dueAt = reviewDueAt(now);
  const opened: ScreenCase = {
    status: OPENING_STATUS,
    origin: decision === 'reject' ? 'screen_reject' : 'screen_hold',
    transaction_ids: JSON.stringify([...new Set(trips.flatMap((t) => t.transactionIds))]),
    context: JSON.stringify(trips.map(tripContext)),
    due_at: dueAt,
    warning_at: new Date(dueAt.getTime() - platform.config.reviewWarningHours * 3_600_000),
  };
  const { row } = await insertOnce<AmlScreen>(ctx.db, {
    table: 'aml_screens',
    key: ['tenant_id', 'withdrawal_id'],
    values,
    conflict,
    insert: (db) => insertScreen(db, values, opened),
  });
  return screenView(row);
}
