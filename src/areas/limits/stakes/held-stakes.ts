import type { Executor } from '../../../platform/db/database.js';
import { liveStakeHolds, wagersAcknowledgedSince } from './stakes.store.js';
import { unmatchedHolds, type HeldStake } from './stake-decision.js';

/** The stakes held by allowed checks whose wager events have not been acknowledged yet, at `now`. */
export async function heldStakes(
  db: Executor,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<HeldStake[]> {
  const holds = await liveStakeHolds(db, tenantId, userId, now);
  if (holds.length === 0) return [];
  return unmatchedHolds(holds, await wagersAcknowledgedSince(db, tenantId, userId, holds[0]!.held_at));
}
