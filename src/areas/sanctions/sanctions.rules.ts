import { utcMidnight } from '../../platform/utc-calendar.js';
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
  // Months 1 to 12: the next quarter's first month may be 13, January of the next year.
  const firstMonthOfNext = Math.floor(from.getUTCMonth() / 3) * 3 + 4;
  return utcMidnight(from.getUTCFullYear(), firstMonthOfNext, 1);
}

/** `2027-Q1`: the calendar quarter `at` falls in. */
export const quarterOf = (at: Date) => `${at.getUTCFullYear()}-Q${Math.floor(at.getUTCMonth() / 3) + 1}`;

/** A dismissal as the rule reads it: the entity's content and the player's details then, and the score then. */
export interface RememberedDismissal {
  entity_digest: string | null;
  subject_digest: string;
  score: number;
}

/**
 * Whether a match a reviewer dismissed is raised again. Not while the entity's content and the player's screened
 * details are both unchanged; always when the player's details changed (a correction is a new screening); when only
 * the entity changed, only if the new match scores higher than the dismissed one. A dismissal whose entity content
 * was not remembered (recorded before contents were, or a sandbox match) is matched by the entity alone.
 */
export function raisedAgain(
  match: { score: number; entity_digest?: string | undefined },
  dismissal: RememberedDismissal,
  subjectDigest: string,
): boolean {
  if (dismissal.subject_digest !== subjectDigest) return true;
  if (dismissal.entity_digest === null || match.entity_digest === undefined) return false;
  if (dismissal.entity_digest === match.entity_digest) return false;
  return match.score > dismissal.score;
}
