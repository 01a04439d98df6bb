import type { Transaction } from 'kysely';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { thresholdsOf } from '../safer-gambling.rules.js';
import { limitBehaviourMeasures, playMeasures } from '../safer-gambling.evaluation.store.js';
import { findTenantSettings } from '../safer-gambling.store.js';
import { recordMarkerTrips, type MarkerTrip } from './standing.js';
import { limitBehaviour, longPlay, nextLongPlayCheck } from './evaluate-decisions.js';

/**
 * SG-005 and SG-006 for one player, now (service clock), in the job's transaction: limit increases and breach
 * attempts, and the time played. Returns when SG-006 should next be evaluated while a session runs (null when none
 * runs).
 */
export async function evaluatePlayer(
  tx: Transaction<DB>,
  platform: Pick<Platform, 'log'>,
  input: { tenantId: string; userId: string; source: string },
  now: Date,
): Promise<Date | null> {
  const { tenantId, userId, source } = input;
  const overrides = (await findTenantSettings(tx, tenantId))?.marker_overrides ?? {};
  const limits = thresholdsOf('SG-005', overrides);
  const play = thresholdsOf('SG-006', overrides);
  const behaviour = await limitBehaviourMeasures(tx, {
    tenantId,
    userId,
    now,
    increasesSeconds: limits.increases_window_seconds!,
    breachSeconds: limits.breach_window_seconds!,
  });
  const played = await playMeasures(tx, { tenantId, userId, now, thresholds: play });
  const trips: MarkerTrip[] = [limitBehaviour(behaviour, limits), longPlay(played, play)]
    .filter((finding) => finding !== null)
    .map((finding) => ({ ...finding, userId, observedAt: now, source }));
  if (trips.length > 0) await recordMarkerTrips(tx, platform, tenantId, trips, now);
  return nextLongPlayCheck(played.open, played.playedSeconds, now, play);
}
