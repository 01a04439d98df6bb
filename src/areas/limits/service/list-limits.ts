import type { TenantScopedContext } from '../../../platform/context.js';
import { toRecord } from '../limits.events.js';
import { openLimitsOfUser } from '../limits.store.js';
import { windowStates } from '../statements/limits-windows.js';

/**
 * A user's limits in force, each with its window's spend, the amounts held by allowed checks, what remains, when the oldest deposit leaves the window,
 * and the increase cooling off for its type. An increase past its cool-off whose job has not run yet is shown as
 * the limit in force (status active), as the check already enforces it.
 */
export async function listLimits(ctx: TenantScopedContext, userId: string) {
  const now = ctx.clock.now();
  const tenantId = ctx.tenantId;
  const open = await openLimitsOfUser(ctx.db, tenantId, userId);
  const windows = await windowStates(ctx.db, { tenantId, userId, amountCents: 0, now });
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
