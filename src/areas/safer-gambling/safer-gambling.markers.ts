/**
 * The safer-gambling marker catalogue as data (docs/safer-gambling.md): every threshold, window and level the engine
 * uses lives here, with the bounds within which a tenant may override each threshold. Unlike the AML catalogue,
 * nothing here is secret from the operator: the operator must act on what a marker saw.
 */

/** Recorded with every evaluation: a change to a marker's meaning or default is a new version. */
export const CATALOGUE_VERSION = 'sg-2026-12';

export const MARKER_CODES = ['SG-001', 'SG-002', 'SG-003', 'SG-004', 'SG-005', 'SG-006'] as const;
export type MarkerCode = (typeof MARKER_CODES)[number];

export const MARKER_LEVELS = ['low', 'medium', 'high'] as const;
export type MarkerLevel = (typeof MARKER_LEVELS)[number];
export const RISK_LEVELS = ['none', ...MARKER_LEVELS] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const INTERACTION_KINDS = ['message', 'email', 'call', 'limit_prompt', 'account_review'] as const;
export type InteractionKind = (typeof INTERACTION_KINDS)[number];
export const INTERACTION_OUTCOMES = [
  'no_concern',
  'limits_set',
  'time_out',
  'self_excluded',
  'account_closed',
  'no_response',
  'contested',
] as const;
export type InteractionOutcome = (typeof INTERACTION_OUTCOMES)[number];

export const FINANCIAL_CHECK_LEVELS = ['light', 'enhanced'] as const;
export type FinancialCheckLevel = (typeof FINANCIAL_CHECK_LEVELS)[number];
export const FINANCIAL_WINDOWS = ['rolling_24h', 'rolling_30d', 'rolling_90d'] as const;
export type FinancialWindow = (typeof FINANCIAL_WINDOWS)[number];

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
/** Catalogue amounts are written in US dollars and kept in USD cents, converted as the AML rules convert them. */
const usd = (dollars: number) => dollars * 100;

/** One threshold of a marker: its default and the bounds a tenant's override must stay within (inclusive). */
export interface Threshold {
  value: number;
  min: number;
  max: number;
  unit: 'usd_cents' | 'count' | 'seconds' | 'percent' | 'multiple';
  description: string;
}

export interface Marker {
  code: MarkerCode;
  name: string;
  /** What it measures, in the operator's terms (shown to the operator and in the docs). */
  measures: string;
  level: MarkerLevel;
  /** The thresholds a tenant may override, by name. */
  thresholds: Readonly<Record<string, Threshold>>;
}

const threshold = (
  value: number,
  min: number,
  max: number,
  unit: Threshold['unit'],
  description: string,
): Threshold => ({ value, min, max, unit, description });

export const MARKERS = {
  'SG-001': {
    code: 'SG-001',
    name: 'Spend escalation',
    measures:
      "Successful deposits in the last 7 days against the player's weekly average over the 12 weeks before them",
    level: 'medium',
    thresholds: {
      min_deposits_usd_cents: threshold(
        usd(500),
        usd(100),
        usd(5_000),
        'usd_cents',
        'deposits in 7 days at least',
      ),
      multiple: threshold(3, 2, 10, 'multiple', 'times the weekly average at least'),
      window_seconds: threshold(7 * DAY, 7 * DAY, 7 * DAY, 'seconds', 'the window measured'),
      baseline_weeks: threshold(12, 12, 12, 'count', 'weeks of the baseline before the window'),
      min_history_weeks: threshold(4, 2, 12, 'count', 'weeks of history before the player is evaluated'),
    },
  },
  'SG-002': {
    code: 'SG-002',
    name: 'Loss chasing',
    measures:
      'Deposits within 60 minutes, each made while the net loss (stakes minus payouts) over the 24 hours before it was high',
    level: 'high',
    thresholds: {
      min_deposits: threshold(3, 2, 10, 'count', 'deposits within the window at least'),
      window_seconds: threshold(60 * MINUTE, 15 * MINUTE, 4 * HOUR, 'seconds', 'the window of the deposits'),
      min_net_loss_usd_cents: threshold(
        usd(100),
        usd(20),
        usd(1_000),
        'usd_cents',
        'net loss over 24 hours at least',
      ),
      loss_window_seconds: threshold(
        DAY,
        DAY,
        DAY,
        'seconds',
        'the window of the net loss before each deposit',
      ),
    },
  },
  'SG-003': {
    code: 'SG-003',
    name: 'Night play',
    measures: "Stakes in the last 7 days placed between 00:00 and 06:00 in the tenant's time zone",
    level: 'low',
    thresholds: {
      min_stakes: threshold(20, 10, 200, 'count', 'stakes in 7 days at least'),
      min_night_percent: threshold(50, 25, 90, 'percent', 'of them at night at least'),
      window_seconds: threshold(7 * DAY, 7 * DAY, 7 * DAY, 'seconds', 'the window measured'),
      night_start_hour: threshold(0, 0, 0, 'count', 'night starts at this hour (tenant time)'),
      night_end_hour: threshold(6, 6, 6, 'count', 'night ends at this hour (tenant time)'),
    },
  },
  'SG-004': {
    code: 'SG-004',
    name: 'Failed deposits',
    measures: 'Deposit attempts reported failed (metadata.status failed) in the last 24 hours',
    level: 'medium',
    thresholds: {
      min_failed: threshold(5, 3, 20, 'count', 'failed deposits at least'),
      window_seconds: threshold(DAY, DAY, DAY, 'seconds', 'the window measured'),
    },
  },
  'SG-005': {
    code: 'SG-005',
    name: 'Limit behaviour',
    measures:
      'Limit increases requested in the last 30 days (any kind), or breach attempts in the last 7 days',
    level: 'medium',
    thresholds: {
      min_increases: threshold(2, 1, 10, 'count', 'limit increases requested at least'),
      increases_window_seconds: threshold(
        30 * DAY,
        30 * DAY,
        30 * DAY,
        'seconds',
        'the window of the increases',
      ),
      min_breach_attempts: threshold(3, 1, 20, 'count', 'breach attempts at least'),
      breach_window_seconds: threshold(
        7 * DAY,
        7 * DAY,
        7 * DAY,
        'seconds',
        'the window of the breach attempts',
      ),
    },
  },
  'SG-006': {
    code: 'SG-006',
    name: 'Long play',
    measures:
      'Time played in the last 24 hours, or sessions of 3 hours or more in the last 7 days (play sessions)',
    level: 'medium',
    thresholds: {
      min_play_seconds: threshold(6 * HOUR, 2 * HOUR, 12 * HOUR, 'seconds', 'played in 24 hours at least'),
      play_window_seconds: threshold(DAY, DAY, DAY, 'seconds', 'the window of the time played'),
      long_session_seconds: threshold(3 * HOUR, HOUR, 6 * HOUR, 'seconds', 'a long session lasts at least'),
      min_long_sessions: threshold(3, 1, 10, 'count', 'long sessions at least'),
      long_sessions_window_seconds: threshold(
        7 * DAY,
        7 * DAY,
        7 * DAY,
        'seconds',
        'the window of the sessions',
      ),
    },
  },
} as const satisfies Record<MarkerCode, Marker>;

/** A marker stays active this long after it last tripped, unless an interaction reviews it. */
export const MARKER_ACTIVE_SECONDS = 30 * DAY;
/** A reviewed marker stays quiet this long, unless it trips again with a higher measured value. */
export const REVIEW_QUIET_SECONDS = 30 * DAY;
/** Three or more active markers raise the level to high whatever their own levels. */
export const MARKERS_FOR_HIGH = 3;
