import type { Transaction } from 'kysely';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import type { Executor } from '../../../platform/db/database.js';
import { newId } from '../../../platform/ids.js';
import { emitEvent } from '../../../platform/outbox.js';
import { cancelJob, scheduleJob } from '../../../platform/scheduler.js';
import { raiseAlert } from '../../../platform/alerts.js';
import { CATALOGUE_VERSION, MARKERS, type MarkerCode } from '../safer-gambling.markers.js';
import {
  activeUntil,
  atLeast,
  policyOf,
  riskLevelOf,
  tripEffect,
  type Policy,
} from '../safer-gambling.rules.js';
import * as store from '../safer-gambling.store.js';
import type { SgPlayerMarkerRow } from '../safer-gambling.tables.js';

/** A marker's finding for one player, from an evaluation. */
export interface MarkerTrip {
  code: MarkerCode;
  userId: string;
  /** The moment of the player's history that tripped it (event time). */
  observedAt: Date;
  measuredValue: number;
  threshold: number;
  details: Record<string, unknown>;
  /** What it was evaluated for: an AML event's id, a limit's id, a play session's id. */
  source: string;
}

/** The stored work of a player's standing, on the service clock: the next lapse of a marker, an overdue interaction. */
export const MARKER_LAPSE_JOB = 'safer_gambling.marker_lapse';
export const INTERACTION_OVERDUE_JOB = 'safer_gambling.interaction_overdue';
const subjectOf = (tenantId: string, userId: string) => `${tenantId}/${userId}`;

export const isActive = (marker: SgPlayerMarkerRow, now: Date) =>
  marker.active_until !== null && marker.active_until > now;

export const markerRefs = (active: SgPlayerMarkerRow[]) =>
  active.map((m) => ({
    code: m.code,
    name: MARKERS[m.code].name,
    tripped_at: m.last_tripped_at.toISOString(),
  }));

export async function policyOfTenant(db: Executor, tenantId: string): Promise<Policy> {
  return policyOf((await store.findTenantSettings(db, tenantId))?.policy);
}

/**
 * Records an evaluation's trips in its transaction and settles each player's standing when a marker activates. Every activation, and every
 * renewal that measured more than before, is kept as evidence (sg_marker_trips); a reviewed marker in its quiet time
 * that measured no more than at its review changes nothing.
 */
export async function recordMarkerTrips(
  tx: Transaction<DB>,
  platform: Pick<Platform, 'log'>,
  tenantId: string,
  trips: MarkerTrip[],
  now: Date,
): Promise<void> {
  const byUser = new Map<string, MarkerTrip[]>();
  for (const trip of trips) byUser.set(trip.userId, [...(byUser.get(trip.userId) ?? []), trip]);
  // A fixed lock order keeps two evaluators that share players from deadlocking.
  for (const userId of [...byUser.keys()].sort()) {
    await store.lockPlayer(tx, tenantId, userId);
    const states = new Map((await store.playerMarkers(tx, tenantId, userId)).map((m) => [m.code, m]));
    const evidence = [];
    let activated = false;
    for (const trip of byUser.get(userId)!) {
      const state = states.get(trip.code);
      const effect = tripEffect(state, trip.measuredValue, now);
      if (effect === 'quiet') continue;
      activated ||= effect === 'activate';
      const renewedNoHigher = effect === 'renew' && state && trip.measuredValue <= state.measured_value;
      const marker = {
        tenant_id: tenantId,
        user_id: userId,
        code: trip.code,
        level: MARKERS[trip.code].level,
        first_tripped_at: state?.first_tripped_at ?? now,
        last_tripped_at: now,
        measured_value: renewedNoHigher ? state.measured_value : trip.measuredValue,
        threshold: renewedNoHigher ? state.threshold : trip.threshold,
        active_until: activeUntil(now),
        reviewed_at: effect === 'renew' ? (state?.reviewed_at ?? null) : null,
        reviewed_value: effect === 'renew' ? (state?.reviewed_value ?? null) : null,
        review_quiet_until: effect === 'renew' ? (state?.review_quiet_until ?? null) : null,
        reviewed_by_interaction_id: effect === 'renew' ? (state?.reviewed_by_interaction_id ?? null) : null,
      };
      await store.upsertPlayerMarker(tx, marker);
      states.set(trip.code, { ...marker });
      if (renewedNoHigher) continue;
      evidence.push({
        trip_id: newId('marker_trip'),
        tenant_id: tenantId,
        user_id: userId,
        code: trip.code,
        level: MARKERS[trip.code].level,
        observed_at: trip.observedAt,
        tripped_at: now,
        measured_value: trip.measuredValue,
        threshold: trip.threshold,
        details: JSON.stringify(trip.details),
        catalogue_version: CATALOGUE_VERSION,
        source: trip.source,
      });
    }
    await store.insertTrips(tx, evidence);
    // Only an activation can move the level. A renewal leaves the lapse job due early at worst: it then settles
    // the standing, which finds the marker still active and moves the job to the next lapse.
    if (activated) await settleStanding(tx, platform, tenantId, userId, now);
  }
}

/**
 * Brings a player's standing in line with their markers now (the caller holds the player's lock): the level, with
 * player.risk_changed when it moves; an interaction required (player.interaction_required) when the level reaches
 * the policy's and none is owed; the next lapse of an active marker as stored work.
 */
export async function settleStanding(
  tx: Transaction<DB>,
  platform: Pick<Platform, 'log'>,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<void> {
  const [markers, player, policy] = await Promise.all([
    store.playerMarkers(tx, tenantId, userId),
    store.findPlayer(tx, tenantId, userId),
    policyOfTenant(tx, tenantId),
  ]);
  const active = markers.filter((m) => isActive(m, now));
  const level = riskLevelOf(active);
  const previous = player?.risk_level ?? 'none';
  if (!player && level === 'none') return;
  const refs = markerRefs(active);
  if (level !== previous) {
    await emitEvent(tx, {
      tenantIds: tenantId,
      event: 'player.risk_changed',
      data: { user_id: userId, risk_level: level, previous_level: previous, markers: refs },
      at: now,
    });
  }

  let due = {
    interaction_required_at: player?.interaction_required_at ?? null,
    interaction_due_at: player?.interaction_due_at ?? null,
    interaction_overdue_at: player?.interaction_overdue_at ?? null,
  };
  const reached =
    atLeast(level, policy.interaction_required_from) && !atLeast(previous, policy.interaction_required_from);
  if (reached && due.interaction_due_at === null) {
    const dueAt = new Date(now.getTime() + policy.interaction_due_hours * 3_600_000);
    due = { interaction_required_at: now, interaction_due_at: dueAt, interaction_overdue_at: null };
    await emitEvent(tx, {
      tenantIds: tenantId,
      event: 'player.interaction_required',
      data: { user_id: userId, due_at: dueAt.toISOString(), markers: refs },
      at: now,
    });
    await scheduleJob(tx, {
      kind: INTERACTION_OVERDUE_JOB,
      subjectId: subjectOf(tenantId, userId),
      tenantId,
      dueAt: new Date(dueAt.getTime() + policy.overdue_after_hours * 3_600_000),
      payload: { user_id: userId, due_at: dueAt.toISOString() },
    });
  }

  await store.upsertPlayer(tx, {
    tenant_id: tenantId,
    user_id: userId,
    risk_level: level,
    level_changed_at: level !== previous || !player ? now : player.level_changed_at,
    ...due,
    contested_at: player?.contested_at ?? null,
    contested_interaction_id: player?.contested_interaction_id ?? null,
    updated_at: now,
  });

  const nextLapse = active.reduce<Date | null>(
    (soonest, m) => (soonest && soonest <= m.active_until! ? soonest : m.active_until),
    null,
  );
  if (nextLapse) {
    await scheduleJob(tx, {
      kind: MARKER_LAPSE_JOB,
      subjectId: subjectOf(tenantId, userId),
      tenantId,
      dueAt: nextLapse,
      payload: { user_id: userId },
    });
  } else {
    await cancelJob(tx, MARKER_LAPSE_JOB, subjectOf(tenantId, userId));
  }
}

/** Ends the owed interaction's clock (an interaction settled it): its overdue job goes with it. */
export const cancelOverdue = (tx: Executor, tenantId: string, userId: string) =>
  cancelJob(tx, INTERACTION_OVERDUE_JOB, subjectOf(tenantId, userId));

/**
 * The interaction owed for due_at is still owed: player.interaction_overdue, once, and an alert for the service's
 * staff (the console's follow-up queue lists the player).
 */
async function interactionOverdue(
  tx: Transaction<DB>,
  platform: Pick<Platform, 'log'>,
  tenantId: string,
  userId: string,
  dueAt: string,
  now: Date,
): Promise<void> {
  await store.lockPlayer(tx, tenantId, userId);
  const player = await store.findPlayer(tx, tenantId, userId);
  if (!player?.interaction_due_at || player.interaction_due_at.toISOString() !== dueAt) return;
  if (player.interaction_overdue_at) return;
  const active = (await store.playerMarkers(tx, tenantId, userId)).filter((m) => isActive(m, now));
  await store.upsertPlayer(tx, { ...player, interaction_overdue_at: now, updated_at: now });
  await emitEvent(tx, {
    tenantIds: tenantId,
    event: 'player.interaction_overdue',
    data: { user_id: userId, due_at: dueAt, markers: markerRefs(active) },
    at: now,
  });
  await raiseAlert(
    tx,
    platform.log,
    {
      kind: 'safer_gambling_interaction_overdue',
      subject: tenantId,
      message: `A safer-gambling interaction due at ${dueAt} has not been recorded`,
      details: { tenant_id: tenantId, user_id: userId, due_at: dueAt },
      dedupeKey: `safer_gambling_interaction_overdue/${tenantId}/${userId}/${dueAt}`,
    },
    now,
  );
}

export function registerStandingJobs(platform: Platform): void {
  platform.scheduler.register(MARKER_LAPSE_JOB, async (tx, job, now) => {
    const userId = String((job.payload as { user_id?: unknown }).user_id ?? '');
    if (!job.tenant_id || !userId) return;
    await store.lockPlayer(tx, job.tenant_id, userId);
    await settleStanding(tx, platform, job.tenant_id, userId, now);
  });
  platform.scheduler.register(INTERACTION_OVERDUE_JOB, async (tx, job, now) => {
    const { user_id: userId, due_at: dueAt } = job.payload as { user_id?: string; due_at?: string };
    if (!job.tenant_id || !userId || !dueAt) return;
    await interactionOverdue(tx, platform, job.tenant_id, userId, dueAt, now);
  });
}
