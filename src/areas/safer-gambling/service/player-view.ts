import type { TenantScopedContext } from '../../../platform/context.js';
import { MARKERS, type MarkerCode } from '../safer-gambling.markers.js';
import type { SaferGamblingView } from '../safer-gambling.schemas.js';
import * as store from '../safer-gambling.store.js';
import type { SgMarkerTripRow, SgPlayerMarkerRow } from '../safer-gambling.tables.js';
import { toInteraction } from './record-interaction.js';
import { isActive } from './standing.js';

const MAX_LISTED = 100;

/**
 * The unit of what a marker measured: the threshold its last trip names (details.threshold_name), else the
 * marker's first threshold, the one its name is about.
 */
function unitOf(code: MarkerCode, lastTrip: SgMarkerTripRow | undefined): string {
  const thresholds = MARKERS[code].thresholds as Record<string, { unit: string }>;
  const named = lastTrip?.details.threshold_name;
  const threshold = (typeof named === 'string' && thresholds[named]) || Object.values(thresholds)[0]!;
  return threshold.unit;
}

const markerView = (m: SgPlayerMarkerRow, status: 'active' | 'reviewed', lastTrip?: SgMarkerTripRow) => ({
  code: m.code,
  name: MARKERS[m.code].name,
  level: m.level,
  status,
  tripped_at: m.last_tripped_at,
  first_tripped_at: m.first_tripped_at,
  measured_value: m.measured_value,
  threshold: m.threshold,
  unit: unitOf(m.code, lastTrip),
  active_until: m.active_until,
  reviewed_at: m.reviewed_at,
  review_quiet_until: m.review_quiet_until,
});

/**
 * A player's safer-gambling standing as the operator reads it (GET /v1/players/{user_id}/safer-gambling): what the
 * markers saw, what is owed, what was done. Nothing of AML or sanctions is read here. A player never seen is at
 * level none with empty lists.
 */
export async function saferGamblingView(
  ctx: TenantScopedContext,
  userId: string,
): Promise<SaferGamblingView> {
  const { db, tenantId } = ctx;
  const now = ctx.clock.now();
  const [player, markers, trips, interactions, checks] = await Promise.all([
    store.findPlayer(db, tenantId, userId),
    store.playerMarkers(db, tenantId, userId),
    store.tripsOfUser(db, tenantId, userId, MAX_LISTED),
    store.interactionsOfUser(db, tenantId, userId, MAX_LISTED),
    store.financialChecksOfUser(db, tenantId, userId, MAX_LISTED),
  ]);
  // Newest first: the first of each code is its last trip.
  const lastTrip = new Map<MarkerCode, SgMarkerTripRow>();
  for (const trip of trips) if (!lastTrip.has(trip.code)) lastTrip.set(trip.code, trip);
  const active = markers.filter((m) => isActive(m, now));
  // A reviewed marker stays listed (with its quiet time) until it trips again; a lapsed one is history only.
  const reviewed = markers.filter((m) => !isActive(m, now) && m.reviewed_at !== null);
  return {
    user_id: userId,
    risk_level: player?.risk_level ?? 'none',
    markers: [
      ...active.map((m) => markerView(m, 'active', lastTrip.get(m.code))),
      ...reviewed.map((m) => markerView(m, 'reviewed', lastTrip.get(m.code))),
    ],
    interaction_due_at: player?.interaction_due_at ?? null,
    interaction_overdue: player?.interaction_overdue_at != null,
    contested: player?.contested_at != null,
    interactions: interactions.map(toInteraction),
    financial_checks: checks.map((c) => ({
      level: c.level,
      window: c.window_name,
      net_deposits_cents: c.net_deposits_cents,
      currency: c.currency,
      threshold_cents: c.threshold_cents,
      called_at: c.called_at,
    })),
  };
}
