import { KYC_TIER_THRESHOLDS_USD_CENTS } from '../kyc/index.js';

/** The spec's AML event types. */
export const EVENT_TYPES = [
  'deposit',
  'withdrawal',
  'wager',
  'settlement',
  'login',
  'account_update',
] as const;
export type AmlEventType = (typeof EVENT_TYPES)[number];

/** The AML rule catalogue as data: every threshold, window and severity the engine uses lives here. */

export const RULE_CODES = [
  'R-001',
  'R-002',
  'R-003',
  'R-004',
  'R-005',
  'R-006',
  'R-007',
  'R-008',
  'R-009',
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

const HOUR = 3600;
const DAY = 86_400;
/** Catalogue amounts are written in US dollars and kept in USD cents. */
const usd = (dollars: number) => dollars * 100;

/** The event types whose amounts count as activity. */
export const ACTIVITY_TYPES = ['deposit', 'withdrawal', 'wager'] as const;

/** attempts: every reported event; succeeded: only events whose money moved (metadata.status absent or succeeded). */
export type RuleCounts = 'attempts' | 'succeeded';

export interface AmlRule {
  code: RuleCode;
  /** Short pattern name. Staff only: never in a tenant response or webhook (tipping-off). */
  pattern: string;
  /** What the rule looks for. Staff only: never in a tenant response or webhook (tipping-off). */
  description: string;
  mode: 'realtime' | 'async';
  /**
   * What the rule counts: every attempt the tenant reports (metadata.status succeeded, failed or pending), or only
   * money that moved (succeeded). Async evaluation and the screen read history through this (see statements/history.ts).
   */
  counts: RuleCounts;
  /**
   * The event types whose async evaluation runs the rule: only those that can change its outcome. R-001 runs at a
   * screen only; R-004 is scheduled by a deposit and decided when its window closes.
   */
  evaluatedOn: readonly AmlEventType[];
  severity: number;
  /** Thresholds in USD cents, windows in seconds. */
  parameters: Readonly<Record<string, number | readonly number[]>>;
}

export const AML_RULES = {
  'R-001': {
    code: 'R-001',
    pattern: 'Large withdrawal',
    description: 'A single withdrawal of USD 10,000 or more',
    mode: 'realtime',
    counts: 'attempts',
    evaluatedOn: [],
    severity: 7,
    parameters: { min_withdrawal_usd_cents: usd(10_000) },
  },
  'R-002': {
    code: 'R-002',
    pattern: 'Velocity',
    description: '5 or more deposits within 1 hour',
    mode: 'async',
    counts: 'attempts',
    evaluatedOn: ['deposit'],
    severity: 6,
    parameters: { min_deposits: 5, window_seconds: HOUR },
  },
  'R-003': {
    code: 'R-003',
    pattern: 'Structuring',
    description: '10 or more deposits within USD 100 of a KYC tier threshold within 7 days',
    mode: 'async',
    counts: 'succeeded',
    evaluatedOn: ['deposit'],
    severity: 9,
    parameters: {
      min_deposits: 10,
      // The KYC tier ceilings (USD 200, 2,000, 20,000 and 100,000), as the KYC area defines them.
      tier_thresholds_usd_cents: KYC_TIER_THRESHOLDS_USD_CENTS,
      band_usd_cents: usd(100),
      window_seconds: 7 * DAY,
    },
  },
  'R-004': {
    code: 'R-004',
    pattern: 'Minimal play',
    description: 'A deposit over USD 5,000 with under 5% of it wagered in the following 24 hours',
    mode: 'async',
    counts: 'succeeded',
    evaluatedOn: ['deposit'],
    severity: 7,
    parameters: { min_deposit_exclusive_usd_cents: usd(5_000), max_wagered_percent: 5, window_seconds: DAY },
  },
  'R-005': {
    code: 'R-005',
    pattern: 'Round-tripping',
    description: 'A deposit and a withdrawal within 5% of each other, made within 24 hours of each other',
    mode: 'async',
    counts: 'succeeded',
    evaluatedOn: ['deposit', 'withdrawal'],
    severity: 8,
    parameters: { tolerance_percent: 5, window_seconds: DAY },
  },
  'R-006': {
    code: 'R-006',
    pattern: 'Multi-account',
    description: 'The same payment method fingerprint used by 3 or more users',
    mode: 'async',
    counts: 'attempts',
    // Any event that carries a payment method fingerprint.
    evaluatedOn: EVENT_TYPES,
    severity: 8,
    parameters: { min_users: 3 },
  },
  'R-007': {
    code: 'R-007',
    pattern: 'Geographic anomaly',
    description: 'The login country differs from the deposit country within the same session',
    mode: 'async',
    counts: 'attempts',
    // A login or a deposit that carries a session id.
    evaluatedOn: ['login', 'deposit'],
    severity: 5,
    // A session's login and deposit are looked for within this long of each other.
    parameters: { session_window_seconds: DAY },
  },
  'R-008': {
    code: 'R-008',
    pattern: 'Dormant reactivation',
    description: '90 or more idle days, then over USD 5,000 of activity within 24 hours',
    mode: 'async',
    counts: 'succeeded',
    evaluatedOn: ACTIVITY_TYPES,
    severity: 6,
    parameters: {
      min_idle_seconds: 90 * DAY,
      min_activity_exclusive_usd_cents: usd(5_000),
      window_seconds: DAY,
    },
  },
  'R-009': {
    code: 'R-009',
    pattern: 'Aggregate threshold',
    description:
      'Deposits, withdrawals and wagers of USD 10,000 or more within a rolling window (default 24 hours)',
    mode: 'async',
    counts: 'succeeded',
    evaluatedOn: ACTIVITY_TYPES,
    severity: 7,
    parameters: { min_activity_usd_cents: usd(10_000), default_window_seconds: DAY },
  },
} as const satisfies { [C in RuleCode]: AmlRule & { code: C } };

export const ALL_RULES: readonly AmlRule[] = RULE_CODES.map((code) => AML_RULES[code]);

/** Catalogue order, without repeats. */
export function sortCodes(codes: Iterable<RuleCode>): RuleCode[] {
  const set = new Set(codes);
  return RULE_CODES.filter((code) => set.has(code));
}

/** The spec's score: min(100, 10 × the sum of the severities of the triggered rules). */
export function riskScore(codes: Iterable<RuleCode>): number {
  let sum = 0;
  for (const code of new Set(codes)) sum += AML_RULES[code].severity;
  return Math.min(100, 10 * sum);
}

export type ScreenDecision = 'allow' | 'hold' | 'reject';

/** allow below 50, hold for 50 to 79, reject for 80 and above. */
export function decisionFor(score: number): ScreenDecision {
  if (score >= 80) return 'reject';
  if (score >= 50) return 'hold';
  return 'allow';
}

export type RecommendedAction = 'review' | 'hold_and_review' | 'escalate';

/** aml.flagged's recommended_action, on the same bands as the real-time decision. */
export function recommendedAction(score: number): RecommendedAction {
  const decision = decisionFor(score);
  return decision === 'reject' ? 'escalate' : decision === 'hold' ? 'hold_and_review' : 'review';
}
