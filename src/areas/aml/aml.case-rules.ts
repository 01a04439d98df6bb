import {
  AWAITING_REVIEW_STATUSES,
  OPEN_CASE_STATUSES,
  type AmlCase,
  type AmlCaseOrigin,
  type AmlCaseStatus,
} from './aml.tables.js';

/** The case workflow as data: what each staff decision does, and which decisions a case of each origin takes. */

export type DecisionAction = 'confirm_hold' | 'clear' | 'escalate' | 'freeze';
export const DECISION_ACTIONS = ['confirm_hold', 'clear', 'escalate', 'freeze'] as const;

/** Where each action leads and the webhook it sends. */
export const DECISIONS: Record<
  DecisionAction,
  { to: AmlCaseStatus; event: 'aml.held' | 'aml.cleared' | 'aml.escalated' | 'aml.account_frozen' }
> = {
  confirm_hold: { to: 'held', event: 'aml.held' },
  clear: { to: 'cleared', event: 'aml.cleared' },
  escalate: { to: 'escalated', event: 'aml.escalated' },
  freeze: { to: 'frozen', event: 'aml.account_frozen' },
};

/** Decisions that take effect only once a second member of staff approves them (four eyes): a freeze, and an
 * escalation for a suspicious activity report. */
export const FOUR_EYES_ACTIONS: readonly DecisionAction[] = ['freeze', 'escalate'];

/**
 * Per case origin, the statuses from which each action is allowed; an empty list means never. A real-time reject
 * returned the funds and did not pay out: clearing it (aml.cleared, "release funds") or confirming a hold on it
 * would tell the tenant to pay out a withdrawal that must never be paid, so it is only escalated or frozen. An async
 * case holds no withdrawal, so there is no hold to confirm.
 */
export const ALLOWED_DECISIONS: Record<AmlCaseOrigin, Record<DecisionAction, readonly AmlCaseStatus[]>> = {
  async: {
    confirm_hold: [],
    clear: ['under_review', 'escalated'],
    escalate: ['under_review'],
    freeze: ['under_review', 'escalated'],
  },
  screen_hold: {
    confirm_hold: ['under_review'],
    clear: ['under_review', 'held', 'escalated'],
    escalate: ['under_review', 'held'],
    freeze: OPEN_CASE_STATUSES,
  },
  screen_reject: {
    confirm_hold: [],
    clear: [],
    escalate: ['under_review'],
    freeze: ['under_review', 'escalated'],
  },
};

/**
 * The statuses that put a player's account under review for the player status call: every open case (the player's
 * funds may be the subject of a report) and a frozen account. Only cleared ends it.
 */
export const UNDER_REVIEW_STATUSES = [
  ...OPEN_CASE_STATUSES,
  'frozen',
] as const satisfies readonly AmlCaseStatus[];

/** Every case, from a screen or from async findings, opens awaiting a reviewer. */
export const OPENING_STATUS = 'under_review' satisfies AmlCaseStatus;

/** The source of a case opened by a real-time screen's hold or reject (async findings open 'async' cases). */
export const REALTIME_CASE_SOURCE = 'realtime' satisfies AmlCase['source'];
export const ASYNC_CASE_SOURCE = 'async' satisfies AmlCase['source'];

export const isOpen = (status: AmlCaseStatus) => (OPEN_CASE_STATUSES as readonly string[]).includes(status);
export const isAwaitingReview = (status: AmlCaseStatus) =>
  (AWAITING_REVIEW_STATUSES as readonly string[]).includes(status);

/** The spec's AML review SLA: a case awaiting review is due this long after it opened. */
export const REVIEW_SLA_SECONDS = 48 * 3600;

export const reviewDueAt = (openedAt: Date) => new Date(openedAt.getTime() + REVIEW_SLA_SECONDS * 1000);
