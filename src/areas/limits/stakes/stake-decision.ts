import { WINDOW_SECONDS, type StakeKind, type WindowType } from '../limits.rules.js';

/**
 * The wager check's decision, as pure functions (docs/player-protection.md, "Loss and wager limits"). A stake must
 * fit every loss and wager limit in force: stakes so far plus the stake within a wager limit; net loss so far
 * (stakes less payouts, never below zero) plus the stake within a loss limit, since the worst case of a bet is
 * losing all of it. Stakes held by allowed checks whose wager events have not arrived count as stakes.
 */

export interface StakeLimit {
  limit_id: string;
  kind: StakeKind;
  type: WindowType;
  amount_cents: number;
}

/** Stakes and payouts counted in one rolling window ending now. */
export interface WindowTotals {
  stakes: number;
  payouts: number;
}

/** A counted event: a wager's stake or a settlement's payout, at its occurred_at. */
export interface CountedEvent {
  type: 'wager' | 'settlement';
  at: Date;
  cents: number;
}

/** How much of a limit is used: stakes for a wager limit, net loss for a loss limit; held stakes in both. */
export function used(kind: StakeKind, totals: WindowTotals, held: number): number {
  const spent = kind === 'wager' ? totals.stakes : Math.max(0, totals.stakes - totals.payouts);
  return spent + held;
}

export type StakeDecision =
  | { allowed: true; wouldRemainCents: number | null }
  | { allowed: false; limit: StakeLimit; usedCents: number; maxAllowedNowCents: number };

/**
 * Allowed when the stake fits every limit. Rejected in full otherwise, naming the limit with the least room (the
 * shorter window on a tie, then loss before wager: a loss limit is the player's own measure of harm).
 */
export function decideStake(
  limits: StakeLimit[],
  totals: Record<WindowType, WindowTotals>,
  held: number,
  stake: number,
): StakeDecision {
  const rooms = limits.map((limit) => ({
    limit,
    used: used(limit.kind, totals[limit.type], held),
    room: limit.amount_cents - used(limit.kind, totals[limit.type], held),
  }));
  if (rooms.length === 0) return { allowed: true, wouldRemainCents: null };
  const least = Math.min(...rooms.map((r) => r.room));
  if (stake <= least) return { allowed: true, wouldRemainCents: least - stake };
  const binding = rooms
    .filter((r) => stake > r.room)
    .sort(
      (a, b) =>
        a.room - b.room ||
        WINDOW_SECONDS[a.limit.type] - WINDOW_SECONDS[b.limit.type] ||
        (a.limit.kind === 'loss' ? -1 : 1),
    )[0]!;
  return {
    allowed: false,
    limit: binding.limit,
    usedCents: binding.used,
    maxAllowedNowCents: Math.max(0, least),
  };
}

/**
 * The earliest time the stake fits this limit, as counted events leave its window (an event at t leaves at t +
 * window) and the held stakes lapse; null when the stake is more than the limit itself. Only this limit is asked:
 * the others may still refuse it then.
 */
export function stakeFitsAt(
  limit: StakeLimit,
  events: CountedEvent[],
  held: number,
  holdsLapseAt: Date | null,
  stake: number,
  now: Date,
): Date | null {
  if (stake > limit.amount_cents) return null;
  const windowMs = WINDOW_SECONDS[limit.type] * 1000;
  const inWindow = (at: number) => events.filter((e) => e.at.getTime() + windowMs > at);
  const fits = (at: number) => {
    const counted = inWindow(at);
    const totals = {
      stakes: counted.filter((e) => e.type === 'wager').reduce((sum, e) => sum + e.cents, 0),
      payouts: counted.filter((e) => e.type === 'settlement').reduce((sum, e) => sum + e.cents, 0),
    };
    const heldThen = holdsLapseAt && at >= holdsLapseAt.getTime() ? 0 : held;
    return stake <= limit.amount_cents - used(limit.kind, totals, heldThen);
  };
  const moments = [
    ...events.map((e) => e.at.getTime() + windowMs),
    ...(holdsLapseAt ? [holdsLapseAt.getTime()] : []),
  ]
    .filter((at) => at > now.getTime())
    .sort((a, b) => a - b);
  const at = moments.find(fits);
  // Once every counted event has left and the holds lapsed nothing is used, so a stake within the limit fits.
  return new Date(at ?? Math.max(now.getTime(), ...moments));
}

/** A stake an allowed check holds, and a wager event acknowledged since: (amount, time). */
export interface HeldStake {
  amount_cents: number;
  held_at: Date;
  expires_at: Date;
}
export interface AcknowledgedStake {
  amount_cents: number;
  received_at: Date;
}

/**
 * The holds still counted: a hold ends when a wager event of its amount is acknowledged at or after it was placed
 * (the stake then counts from the event), each event ending one hold, the oldest first.
 */
export function unmatchedHolds(holds: HeldStake[], wagers: AcknowledgedStake[]): HeldStake[] {
  const open = [...holds].sort((a, b) => a.held_at.getTime() - b.held_at.getTime());
  for (const wager of [...wagers].sort((a, b) => a.received_at.getTime() - b.received_at.getTime())) {
    const i = open.findIndex(
      (h) => h.amount_cents === wager.amount_cents && h.held_at.getTime() <= wager.received_at.getTime(),
    );
    if (i >= 0) open.splice(i, 1);
  }
  return open;
}
