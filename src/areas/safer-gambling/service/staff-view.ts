import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import type { Executor } from '../../../platform/db/database.js';
import { AppError } from '../../../platform/errors.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { MARKERS } from '../safer-gambling.markers.js';
import * as staffStore from '../safer-gambling.staff.store.js';
import * as store from '../safer-gambling.store.js';
import { isActive } from './standing.js';

/**
 * What the service's staff see of one player's safer gambling (the console's player page): the standing, each
 * marker's state, the markers' timeline (every trip, newest first), the interactions and the financial checks.
 * Each list stops at `max`: the page is a summary.
 */
export async function saferGamblingOfPlayer(
  db: Executor,
  tenantId: string,
  userId: string,
  now: Date,
  max: number,
) {
  const [player, markers, trips, interactions, financialChecks] = await Promise.all([
    store.findPlayer(db, tenantId, userId),
    store.playerMarkers(db, tenantId, userId),
    store.tripsOfUser(db, tenantId, userId, max),
    store.interactionsOfUser(db, tenantId, userId, max),
    store.financialChecksOfUser(db, tenantId, userId, max),
  ]);
  return {
    risk_level: player?.risk_level ?? 'none',
    level_changed_at: player?.level_changed_at ?? null,
    interaction_due_at: player?.interaction_due_at ?? null,
    // Overdue only while the interaction is still owed (as the staff's queue counts it).
    interaction_overdue_at: player?.interaction_due_at ? player.interaction_overdue_at : null,
    contested_at: player?.contested_at ?? null,
    contested_interaction_id: player?.contested_interaction_id ?? null,
    markers: markers.map((m) => ({
      ...m,
      name: MARKERS[m.code].name,
      state: isActive(m, now) ? 'active' : m.reviewed_at ? 'reviewed' : 'lapsed',
    })),
    trips: trips.map((t) => ({ ...t, name: MARKERS[t.code].name })),
    interactions,
    financial_checks: financialChecks,
  };
}

export type PlayerSaferGambling = Awaited<ReturnType<typeof saferGamblingOfPlayer>>;

/**
 * A member of staff lifts a player's contest flag once they have looked into it, with the reason, in the tenant's
 * audit log. The markers stay as they are: a contest is about the finding's handling, not its evidence.
 */
export function clearContest(
  ctx: ServiceContext,
  input: { tenant_id: string; user_id: string; reason: string },
): Promise<void> {
  return withTransaction(forTenant(ctx, input.tenant_id), async (tx, ctx) => {
    await store.lockPlayer(tx, input.tenant_id, input.user_id);
    const player = await store.findPlayer(tx, input.tenant_id, input.user_id);
    if (!player?.contested_at) {
      throw new AppError('case_already_closed', `Player ${input.user_id} has no contest to clear`);
    }
    await staffStore.clearContested(tx, input.tenant_id, input.user_id, ctx.clock.now());
    await audit(tx, ctx, 'safer_gambling.contest_cleared', {
      user_id: input.user_id,
      contested_at: player.contested_at.toISOString(),
      contested_interaction_id: player.contested_interaction_id,
      reason: input.reason,
    });
  });
}
