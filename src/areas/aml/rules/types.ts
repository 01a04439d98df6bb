import type { RuleCode } from '../aml.rules.js';

/** A rule's finding for one user: recorded as a trip, then added to the user's case. */
export interface Trip {
  rule: RuleCode;
  userId: string;
  /** The pattern's identity: a repeat of the same pattern opens no new case ('' for window rules). */
  patternKey: string;
  /** Window rules: no repeat trip until this many seconds (event time) after the last one. */
  cooldownSeconds?: number;
  /** Event time of the finding. */
  at: Date;
  transactionIds: string[];
  /** What the rule saw. Staff only (tipping-off). */
  details: Record<string, unknown>;
}

/** Where a rule looks: one user's recorded history up to a moment (an event's time, or now for a screen). */
export interface HistoryPoint {
  tenantId: string;
  userId: string;
  at: Date;
  /** Left out of the history: the withdrawal under screen, when the tenant also sent it as an event. */
  excludeTransactionId?: string | undefined;
}

export const secondsBefore = (at: Date, seconds: number) => new Date(at.getTime() - seconds * 1000);
export const secondsAfter = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);
