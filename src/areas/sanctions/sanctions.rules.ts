import type { SanctionsCaseStatus, ScreeningStatus } from './sanctions.tables.js';

/** The spec's sanctions review SLA: a hit is due for a decision 48 hours after its case opened. */
export const REVIEW_SLA_HOURS = 48;

/** The generic wording tenants may pass on; it names no list and no entity. */
export const ESTIMATED_REVIEW_TIME = `${REVIEW_SLA_HOURS} hours`;

/** The status of a screen (and of its case) while a hit awaits a reviewer. */
export const AWAITING_REVIEW = 'hit_review_pending' as const satisfies ScreeningStatus & SanctionsCaseStatus;

/**
 * Who a re-screen (bulk, quarterly or one user) takes: users with no hit in force. A hit awaiting review is decided
 * first; a confirmed one is final.
 */
export const RESCREENABLE_STATUSES: readonly ScreeningStatus[] = ['clear', 'cleared'];

/** A reviewer's decision on a hit: cleared lifts the holds; confirmed keeps them (the account is terminated and
 * its funds frozen). */
export const DECISIONS = {
  cleared: { transactions_held: false },
  confirmed: { transactions_held: true },
} as const satisfies Record<
  Exclude<SanctionsCaseStatus, 'hit_review_pending'>,
  { transactions_held: boolean }
>;

export type Decision = keyof typeof DECISIONS;

/** Decisions that take effect only once a second member of staff approves them (four eyes). */
export const FOUR_EYES_DECISIONS: readonly Decision[] = ['confirmed'];

/** The first instant of the next calendar quarter (1 Jan, 1 Apr, 1 Jul, 1 Oct, 00:00 UTC) after `from`. */
export function nextQuarterStart(from: Date): Date {
  const firstMonthOfNext = Math.floor(from.getUTCMonth() / 3) * 3 + 3;
  return new Date(Date.UTC(from.getUTCFullYear(), firstMonthOfNext, 1));
}

/** `2027-Q1`: the calendar quarter `at` falls in. */
export const quarterOf = (at: Date) => `${at.getUTCFullYear()}-Q${Math.floor(at.getUTCMonth() / 3) + 1}`;
