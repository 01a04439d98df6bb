import type { TenantScopedContext } from '../../../platform/context.js';
import { minorScale } from '../../../platform/fx.js';
import { toKindRecord, toRecord } from '../limits.events.js';
import { WINDOW_SECONDS, type LimitKind, type StakeKind, type WindowType } from '../limits.rules.js';
import type { KindLimitView } from '../limits.schemas.js';
import { unmatchedHolds, used } from '../stakes/stake-decision.js';
import { stakeStates } from '../stakes/stakes.store.js';
import { openLimitsOfUser, type OpenLimit } from '../limits.store.js';
import { windowStates } from '../statements/limits-windows.js';
import { playResetsAt, remainingSeconds, spentSeconds } from '../sessions/play-time.js';
import { playTimeState } from './play-time.js';

/**
 * A user's limits in force, each with its window's spend, the amounts held by allowed checks, what remains, when the oldest deposit leaves the window,
 * and the increase cooling off for its type. An increase past its cool-off whose job has not run yet is shown as
 * the limit in force (status active), as the check already enforces it.
 */
export async function listLimits(ctx: TenantScopedContext, userId: string) {
  const now = ctx.clock.now();
  return depositViews(ctx, userId, await openLimitsOfUser(ctx.db, ctx.tenantId, userId, now, 'deposit'), now);
}

/** The deposit limits among `open` as listLimits shows them, with their windows' state (one statement). */
async function depositViews(ctx: TenantScopedContext, userId: string, open: OpenLimit[], now: Date) {
  if (open.length === 0) return [];
  const windows = await windowStates(ctx.db, { tenantId: ctx.tenantId, userId, amountCents: 0, now });
  return windows.map((w) => {
    const inForce = open.find((l) => l.limit_id === w.limit_id)!;
    const pending = open.find(
      (l) => l.limit_type === w.limit_type && l.status === 'pending' && l.limit_id !== w.limit_id,
    );
    return {
      ...toRecord(inForce),
      status: 'active' as const,
      spent_cents: w.spent_cents,
      held_cents: w.held_cents,
      remaining_cents: Math.max(0, w.limit_cents - w.spent_cents - w.held_cents),
      next_reset_at: w.oldest_leaves_at,
      pending_change: pending ? toRecord(pending) : null,
    };
  });
}

/**
 * A user's limits of one kind or of every kind (`all`): deposit limits as listLimits shows them; loss and wager
 * limits with their stakes or net loss in the window, the stakes held by allowed checks and what remains; play_time
 * limits with the time played in the window (limit_session: the longest open session) and what remains. One row per
 * kind and window in force, with the increase cooling off for it.
 */
export async function listLimitsOfKind(
  ctx: TenantScopedContext,
  userId: string,
  kind: LimitKind | 'all',
): Promise<KindLimitView[]> {
  const now = ctx.clock.now();
  const { tenantId } = ctx;
  // One read of the user's open limits serves every kind; the kinds' states are then read side by side.
  const all = await openLimitsOfUser(ctx.db, tenantId, userId, now, kind === 'all' ? undefined : kind);
  const [deposits, others] = await Promise.all([
    depositViews(
      ctx,
      userId,
      all.filter((l) => l.limit_kind === 'deposit'),
      now,
    ),
    otherKindViews(
      ctx,
      userId,
      all.filter((l) => l.limit_kind !== 'deposit'),
      now,
    ),
  ]);
  return [...deposits, ...others];
}

/** Loss, wager and play_time limits among `open`, with their windows' use. */
async function otherKindViews(
  ctx: TenantScopedContext,
  userId: string,
  open: OpenLimit[],
  now: Date,
): Promise<KindLimitView[]> {
  if (open.length === 0) return [];
  const { tenantId } = ctx;
  const currency = open.find((l) => l.currency !== null)?.currency;
  const [stakes, { played }] = await Promise.all([
    currency
      ? stakeStates(ctx.db, [{ tenantId, userId, currency, scale: minorScale(currency), at: now }])
      : undefined,
    open.some((l) => l.limit_kind === 'play_time')
      ? playTimeState(ctx.db, tenantId, userId, now)
      : { played: [] },
  ]);
  const totals = stakes?.[0]?.totals;
  const heldCents = stakes
    ? unmatchedHolds(stakes[0]!.holds, stakes[0]!.acknowledged).reduce((sum, h) => sum + h.amount_cents, 0)
    : 0;
  const views: KindLimitView[] = [];
  for (const limit of open) {
    const pending = open.find(
      (l) => l.status === 'pending' && l.limit_kind === limit.limit_kind && l.limit_type === limit.limit_type,
    );
    // The limit in force: the active one, or a pending increase whose cool-off has elapsed (it replaces it).
    const due = pending?.in_force ? pending : undefined;
    if (limit.status === 'pending' ? limit !== due : due !== undefined) continue;
    const pendingChange = pending && pending !== due ? toKindRecord(pending) : null;
    const base = { ...toKindRecord(limit), status: 'active' as const, pending_change: pendingChange };
    if (limit.limit_kind === 'play_time') {
      const time = { limit_type: limit.limit_type, amount_seconds: Number(limit.amount_cents) };
      const resetsAt = playResetsAt(time, played, now.getTime());
      views.push({
        ...base,
        spent_seconds: spentSeconds(time, played, now.getTime()),
        remaining_seconds: remainingSeconds(time, played, now.getTime()),
        next_reset_at: resetsAt === null ? null : new Date(resetsAt).toISOString(),
      });
      continue;
    }
    if (!totals) {
      views.push({ ...base, next_reset_at: null });
      continue;
    }
    const type = limit.limit_type as WindowType;
    const use = totals[type];
    const spent = used(limit.limit_kind as StakeKind, use, 0);
    const oldest = limit.limit_kind === 'wager' ? use.oldestStakeAt : use.oldestAt;
    views.push({
      ...base,
      spent_cents: spent,
      held_cents: heldCents,
      remaining_cents: Math.max(0, Number(limit.amount_cents) - spent - heldCents),
      next_reset_at: oldest ? new Date(oldest.getTime() + WINDOW_SECONDS[type] * 1000).toISOString() : null,
    });
  }
  return views;
}
