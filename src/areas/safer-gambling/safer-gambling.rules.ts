/**
 * The safer-gambling engine's decisions, pure (docs/safer-gambling.md): thresholds with a tenant's overrides, the
 * level from the active markers, what a new trip does to a marker's state, and what a level sets by the tenant's
 * policy. The catalogue itself is data in safer-gambling.markers.ts.
 */
import {
  MARKER_ACTIVE_SECONDS,
  MARKERS,
  MARKERS_FOR_HIGH,
  REVIEW_QUIET_SECONDS,
  type FinancialCheckLevel,
  type FinancialWindow,
  type MarkerCode,
  type MarkerLevel,
  type RiskLevel,
} from './safer-gambling.markers.js';

/** A tenant's threshold overrides: by marker, by threshold name. */
export type MarkerOverrides = Partial<Record<MarkerCode, Record<string, number>>>;

/** The thresholds a marker evaluates with for a tenant: the catalogue's, each replaced by its override if any. */
export function thresholdsOf(code: MarkerCode, overrides: MarkerOverrides = {}): Record<string, number> {
  const own = overrides[code] ?? {};
  return Object.fromEntries(
    Object.entries(MARKERS[code].thresholds).map(([name, t]) => [name, own[name] ?? t.value]),
  );
}

/** Why a set of overrides is refused (unknown marker or threshold, or outside the bounds); empty when it is taken. */
export function overrideProblems(overrides: MarkerOverrides): string[] {
  const problems: string[] = [];
  for (const [code, values] of Object.entries(overrides)) {
    const marker = MARKERS[code as MarkerCode];
    if (!marker) {
      problems.push(`${code} is not a marker of the catalogue`);
      continue;
    }
    for (const [name, value] of Object.entries(values ?? {})) {
      const bounds = (marker.thresholds as Record<string, { min: number; max: number }>)[name];
      if (!bounds) problems.push(`${code} has no threshold ${name}`);
      else if (!Number.isInteger(value) || value < bounds.min || value > bounds.max)
        problems.push(`${code} ${name} must be an integer from ${bounds.min} to ${bounds.max}`);
    }
  }
  return problems;
}

const RANK: Record<RiskLevel, number> = { none: 0, low: 1, medium: 2, high: 3 };
export const higherLevel = (a: RiskLevel, b: RiskLevel): RiskLevel => (RANK[a] >= RANK[b] ? a : b);
export const atLeast = (level: RiskLevel, floor: RiskLevel): boolean => RANK[level] >= RANK[floor];

/** The player's level: the highest among the active markers, raised to high when three or more are active. */
export function riskLevelOf(active: readonly { level: MarkerLevel }[]): RiskLevel {
  if (active.length >= MARKERS_FOR_HIGH) return 'high';
  return active.reduce<RiskLevel>((level, marker) => higherLevel(level, marker.level), 'none');
}

/** A marker's state for a player, as far as a new trip is concerned. */
export interface MarkerState {
  active_until: Date | null;
  reviewed_value: number | null;
  review_quiet_until: Date | null;
}

/**
 * What a trip does to the player's marker: it activates a marker never tripped, lapsed, or reviewed and out of its
 * quiet time; it renews an active one (30 more days); a reviewed marker in its quiet time stays quiet unless the
 * trip measured more than the reviewed value.
 */
export type TripEffect = 'activate' | 'renew' | 'quiet';

export function tripEffect(state: MarkerState | undefined, measured: number, now: Date): TripEffect {
  if (!state) return 'activate';
  if (state.active_until && state.active_until > now) return 'renew';
  const quiet = state.review_quiet_until && state.review_quiet_until > now;
  if (quiet && state.reviewed_value !== null && measured <= state.reviewed_value) return 'quiet';
  return 'activate';
}

export const activeUntil = (trippedAt: Date) => new Date(trippedAt.getTime() + MARKER_ACTIVE_SECONDS * 1000);
export const reviewQuietUntil = (reviewedAt: Date) =>
  new Date(reviewedAt.getTime() + REVIEW_QUIET_SECONDS * 1000);

/** What each level sets: the tenant's policy, with these defaults. */
export interface Policy {
  /** At this level or above, marketing_allowed is false in the player status. */
  stop_marketing_from: RiskLevel;
  /** At this level or above, the operator owes an interaction within interaction_due_hours. */
  interaction_required_from: RiskLevel;
  interaction_due_hours: number;
  /** An interaction still owed this many hours after its due time sends player.interaction_overdue and alerts staff. */
  overdue_after_hours: number;
  /** At high, deposits stop (can_deposit false, safer_gambling_review) until an interaction is recorded. */
  stop_deposits_at_high: boolean;
}

export const DEFAULT_POLICY: Policy = {
  stop_marketing_from: 'medium',
  interaction_required_from: 'high',
  interaction_due_hours: 24,
  overdue_after_hours: 24,
  stop_deposits_at_high: false,
};

export type PolicyOverrides = Partial<Policy>;

/** The bounds of a policy override: an interaction owed within 1 to 72 hours, overdue after 1 to 72 more. */
export const POLICY_HOURS_BOUNDS = { min: 1, max: 72 } as const;

export const policyOf = (overrides: PolicyOverrides = {}): Policy => ({ ...DEFAULT_POLICY, ...overrides });

export function policyProblems(overrides: PolicyOverrides): string[] {
  const problems: string[] = [];
  for (const name of ['interaction_due_hours', 'overdue_after_hours'] as const) {
    const value = overrides[name];
    if (
      value !== undefined &&
      (!Number.isInteger(value) || value < POLICY_HOURS_BOUNDS.min || value > POLICY_HOURS_BOUNDS.max)
    )
      problems.push(
        `${name} must be an integer from ${POLICY_HOURS_BOUNDS.min} to ${POLICY_HOURS_BOUNDS.max}`,
      );
  }
  // Marketing may stop earlier than the default, never later: a medium-level player is never marketed to.
  if (overrides.stop_marketing_from === 'high') problems.push('stop_marketing_from may be low or medium');
  if (overrides.stop_marketing_from === 'none') problems.push('stop_marketing_from may be low or medium');
  if (overrides.interaction_required_from === 'none')
    problems.push('interaction_required_from may be low, medium or high');
  return problems;
}

/** What a player's standing sets in the player status. */
export function standingEffects(
  level: RiskLevel,
  interactionDue: boolean,
  policy: Policy,
): { marketingAllowed: boolean; depositsStopped: boolean } {
  return {
    marketingAllowed: !atLeast(level, policy.stop_marketing_from),
    depositsStopped: policy.stop_deposits_at_high && level === 'high' && interactionDue,
  };
}

/** One threshold of the financial-risk checks: net deposits over a rolling window, in the profile's currency. */
export interface FinancialThreshold {
  level: FinancialCheckLevel;
  window: FinancialWindow;
  amount_cents: number;
}

export interface FinancialProfile {
  currency: string;
  thresholds: FinancialThreshold[];
}

/**
 * The UK's profile, the default: the Gambling Commission's financial risk checks (light-touch at GBP 150 of net
 * deposits over a rolling 30 days; enhanced at GBP 1,000 within 24 hours or GBP 2,000 over a rolling 90 days).
 */
export const UK_FINANCIAL_PROFILE: FinancialProfile = {
  currency: 'GBP',
  thresholds: [
    { level: 'light', window: 'rolling_30d', amount_cents: 15_000 },
    { level: 'enhanced', window: 'rolling_24h', amount_cents: 100_000 },
    { level: 'enhanced', window: 'rolling_90d', amount_cents: 200_000 },
  ],
};

export type FinancialProfileOverrides = Partial<FinancialProfile>;

export const WINDOW_SECONDS: Record<FinancialWindow, number> = {
  rolling_24h: 86_400,
  rolling_30d: 30 * 86_400,
  rolling_90d: 90 * 86_400,
};

export const financialProfileOf = (overrides: FinancialProfileOverrides = {}): FinancialProfile => ({
  ...UK_FINANCIAL_PROFILE,
  ...overrides,
});
