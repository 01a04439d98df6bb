/**
 * Each marker's decision over what its reads measured, pure (docs/safer-gambling.md): a finding with its measured
 * value and threshold in the threshold's unit (USD cents, counts, seconds, percent) and the figures the operator
 * needs, or null. Thresholds are the tenant's (thresholdsOf).
 */
import type { FinancialCheckLevel, FinancialWindow, MarkerCode } from '../safer-gambling.markers.js';
import type { FinancialProfile } from '../safer-gambling.rules.js';

export interface Finding {
  code: MarkerCode;
  measuredValue: number;
  threshold: number;
  details: Record<string, unknown>;
}

type Thresholds = Record<string, number>;
const WEEK_SECONDS = 7 * 86_400;

/**
 * The weeks of history SG-001's average is taken over: those between the player's first event and the window,
 * at most baseline_weeks, a started week counting as one. A player with fewer than min_history_weeks since their
 * first event is not evaluated (null).
 */
export function baselineWeeks(firstAt: Date | null, at: Date, t: Thresholds): number | null {
  if (!firstAt) return null;
  const historySeconds = (at.getTime() - firstAt.getTime()) / 1000;
  if (historySeconds < t.min_history_weeks! * WEEK_SECONDS) return null;
  const beforeWindow = historySeconds - t.window_seconds!;
  return Math.min(t.baseline_weeks!, Math.max(1, Math.ceil(beforeWindow / WEEK_SECONDS)));
}

/** SG-001: deposits in 7 days at least USD 500 and at least 3 times the weekly average before them. */
export function spendEscalation(
  m: { windowUsdCents: number; baselineUsdCents: number; firstAt: Date | null },
  at: Date,
  t: Thresholds,
): Finding | null {
  const weeks = baselineWeeks(m.firstAt, at, t);
  if (weeks === null) return null;
  // Integers only: the multiple of the average is compared as window × weeks against multiple × baseline.
  const threshold = Math.max(
    t.min_deposits_usd_cents!,
    Math.ceil((t.multiple! * m.baselineUsdCents) / weeks),
  );
  if (m.windowUsdCents < t.min_deposits_usd_cents!) return null;
  if (m.windowUsdCents * weeks < t.multiple! * m.baselineUsdCents) return null;
  return {
    code: 'SG-001',
    measuredValue: m.windowUsdCents,
    threshold,
    details: {
      threshold_name: 'min_deposits_usd_cents',
      deposits_usd_cents: m.windowUsdCents,
      window_seconds: t.window_seconds,
      weekly_average_usd_cents: Math.round(m.baselineUsdCents / weeks),
      baseline_weeks: weeks,
      baseline_deposits_usd_cents: m.baselineUsdCents,
      multiple: t.multiple,
    },
  };
}

/** SG-002: deposits within the window, each made while the net loss over the 24 hours before it was high. */
export function lossChasing(m: { chasingDeposits: number }, t: Thresholds): Finding | null {
  if (m.chasingDeposits < t.min_deposits!) return null;
  return {
    code: 'SG-002',
    measuredValue: m.chasingDeposits,
    threshold: t.min_deposits!,
    details: {
      threshold_name: 'min_deposits',
      deposits: m.chasingDeposits,
      window_seconds: t.window_seconds,
      min_net_loss_usd_cents: t.min_net_loss_usd_cents,
      loss_window_seconds: t.loss_window_seconds,
    },
  };
}

/** SG-003: at least min_stakes stakes in 7 days, at least min_night_percent of them at night (tenant time). */
export function nightPlay(
  m: { stakes: number; nightStakes: number },
  timeZone: string,
  t: Thresholds,
): Finding | null {
  if (m.stakes < t.min_stakes!) return null;
  if (m.nightStakes * 100 < t.min_night_percent! * m.stakes) return null;
  return {
    code: 'SG-003',
    measuredValue: Math.floor((m.nightStakes * 100) / m.stakes),
    threshold: t.min_night_percent!,
    details: {
      threshold_name: 'min_night_percent',
      stakes: m.stakes,
      night_stakes: m.nightStakes,
      window_seconds: t.window_seconds,
      night: `${String(t.night_start_hour).padStart(2, '0')}:00-${String(t.night_end_hour).padStart(2, '0')}:00`,
      time_zone: timeZone,
    },
  };
}

/** SG-004: failed deposit attempts in 24 hours. */
export function failedDeposits(m: { failed: number }, t: Thresholds): Finding | null {
  if (m.failed < t.min_failed!) return null;
  return {
    code: 'SG-004',
    measuredValue: m.failed,
    threshold: t.min_failed!,
    details: { threshold_name: 'min_failed', failed_deposits: m.failed, window_seconds: t.window_seconds },
  };
}

/**
 * SG-005: limit increases requested in 30 days, or breach attempts in 7 days. The measured value is the count of
 * the condition that tripped (the increases when both did); details name it and give both counts.
 */
export function limitBehaviour(
  m: { increases: number; breachAttempts: number },
  t: Thresholds,
): Finding | null {
  const details = {
    limit_increases: m.increases,
    increases_window_seconds: t.increases_window_seconds,
    breach_attempts: m.breachAttempts,
    breach_window_seconds: t.breach_window_seconds,
  };
  if (m.increases >= t.min_increases!)
    return {
      code: 'SG-005',
      measuredValue: m.increases,
      threshold: t.min_increases!,
      details: { threshold_name: 'min_increases', condition: 'limit_increases', ...details },
    };
  if (m.breachAttempts >= t.min_breach_attempts!)
    return {
      code: 'SG-005',
      measuredValue: m.breachAttempts,
      threshold: t.min_breach_attempts!,
      details: { threshold_name: 'min_breach_attempts', condition: 'breach_attempts', ...details },
    };
  return null;
}

/**
 * SG-006: seconds played in 24 hours, or sessions of 3 hours or more in 7 days. The measured value is the one of
 * the condition that tripped (the time played when both did).
 */
export function longPlay(m: { playedSeconds: number; longSessions: number }, t: Thresholds): Finding | null {
  const details = {
    played_seconds: m.playedSeconds,
    play_window_seconds: t.play_window_seconds,
    long_sessions: m.longSessions,
    long_session_seconds: t.long_session_seconds,
    long_sessions_window_seconds: t.long_sessions_window_seconds,
  };
  if (m.playedSeconds >= t.min_play_seconds!)
    return {
      code: 'SG-006',
      measuredValue: m.playedSeconds,
      threshold: t.min_play_seconds!,
      details: { threshold_name: 'min_play_seconds', condition: 'time_played', ...details },
    };
  if (m.longSessions >= t.min_long_sessions!)
    return {
      code: 'SG-006',
      measuredValue: m.longSessions,
      threshold: t.min_long_sessions!,
      details: { threshold_name: 'min_long_sessions', condition: 'long_sessions', ...details },
    };
  return null;
}

/**
 * When SG-006 should next be evaluated while sessions run: the moment the soonest open session under the long
 * session length reaches it, or the moment the time played in 24 hours would reach its threshold if the open
 * sessions ran on (time leaving the window only makes that later, and the evaluation then plans again). Null when
 * no session is open.
 */
export function nextLongPlayCheck(
  open: { startedAt: Date; countedUntil: Date }[],
  playedSeconds: number,
  now: Date,
  t: Thresholds,
): Date | null {
  const running = open.filter((s) => s.countedUntil > now);
  if (running.length === 0) return null;
  const candidates: number[] = [];
  for (const s of running) {
    const reaches = s.startedAt.getTime() + t.long_session_seconds! * 1000;
    if (reaches > now.getTime() && reaches <= s.countedUntil.getTime()) candidates.push(reaches);
  }
  if (playedSeconds < t.min_play_seconds!) {
    const remaining = Math.ceil((t.min_play_seconds! - playedSeconds) / running.length);
    candidates.push(now.getTime() + remaining * 1000);
  }
  return candidates.length === 0 ? null : new Date(Math.min(...candidates));
}

/** A financial-check threshold the player's net deposits reached. */
export interface Crossing {
  level: FinancialCheckLevel;
  window: FinancialWindow;
  netDepositsCents: number;
  thresholdCents: number;
}

/** The profile's thresholds that net deposits (in the profile's currency, by window) reach. */
export function financialCrossings(
  netByWindow: Record<FinancialWindow, number>,
  profile: FinancialProfile,
): Crossing[] {
  return profile.thresholds
    .filter((t) => netByWindow[t.window] >= t.amount_cents)
    .map((t) => ({
      level: t.level,
      window: t.window,
      netDepositsCents: netByWindow[t.window],
      thresholdCents: t.amount_cents,
    }));
}
