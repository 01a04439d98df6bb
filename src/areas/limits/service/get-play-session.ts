import type { TenantScopedContext } from '../../../platform/context.js';
import { minorScale } from '../../../platform/fx.js';
import { userCurrency } from '../limits.store.js';
import { toPlaySession } from '../sessions/sessions.records.js';
import type { PlaySessionView } from '../sessions/sessions.schemas.js';
import { findSession } from '../sessions/sessions.store.js';
import { sessionCurrency, sessionStakeTotals } from '../stakes/stakes.store.js';
import { sessionNotFound } from './end-play-session.js';

/** The session's events are looked for from an hour before its start: the operator's clocks may differ by that. */
const EVENT_SKEW_MS = 3_600_000;

/**
 * A reality check's data: the session, its elapsed time on the service clock (up to its end, and at most its counting
 * bound), and the stakes and payouts of the wager and settlement events carrying its session_id, counted as the
 * wager check counts them (acknowledged, failed ones excluded, in one currency).
 */
export async function getPlaySession(ctx: TenantScopedContext, sessionId: string): Promise<PlaySessionView> {
  const { tenantId } = ctx;
  const now = ctx.clock.now();
  const row = await findSession(ctx.db, tenantId, sessionId);
  if (!row) throw sessionNotFound(sessionId);
  const since = new Date(row.started_at.getTime() - EVENT_SKEW_MS);
  const currency =
    (await userCurrency(ctx.db, tenantId, row.user_id)) ??
    (await sessionCurrency(ctx.db, tenantId, row.user_id, sessionId, since)) ??
    null;
  const totals = currency
    ? await sessionStakeTotals(
        ctx.db,
        tenantId,
        row.user_id,
        sessionId,
        currency,
        minorScale(currency),
        since,
      )
    : { stakes: 0, payouts: 0 };
  const stop = Math.min(now.getTime(), row.counted_until.getTime());
  return {
    ...toPlaySession(row, now),
    elapsed_seconds: Math.max(0, Math.floor((stop - row.started_at.getTime()) / 1000)),
    stakes_cents: totals.stakes,
    payouts_cents: totals.payouts,
    net_cents: totals.payouts - totals.stakes,
    currency,
  };
}
