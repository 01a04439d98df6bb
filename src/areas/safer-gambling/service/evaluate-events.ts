import { isTransient } from '../../../platform/db/transient.js';
import type { Transaction } from 'kysely';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { raiseAlert } from '../../../platform/alerts.js';
import { rollbackToSavepoint, savepoint } from '../../../platform/db/savepoints.js';
import { minorScale } from '../../../platform/fx.js';
import { MARKERS } from '../safer-gambling.markers.js';
import { financialProfileOf, thresholdsOf } from '../safer-gambling.rules.js';
import {
  depositMeasures,
  stakeMeasures,
  tenantSettingsOf,
  type DepositPoint,
  type StakePoint,
} from '../safer-gambling.evaluation.store.js';
import type { SgTenantSettingsRow } from '../safer-gambling.tables.js';
import { recordMarkerTrips, type MarkerTrip } from './standing.js';
import {
  failedDeposits,
  financialCrossings,
  lossChasing,
  nightPlay,
  spendEscalation,
  type Finding,
} from './evaluate-decisions.js';
import { callFinancialChecks, type FinancialObservation } from './financial-checks.js';

/** What the markers read of an AML event (the AML area's stored event has these and more). */
export interface ObservedEvent {
  event_id: string;
  tenant_id: string;
  user_id: string;
  event_type: string;
  /** metadata.status: succeeded, failed or pending. */
  status: string;
  occurred_at: Date;
}

interface TenantSettings {
  timeZone: string;
  overrides: SgTenantSettingsRow['marker_overrides'];
  profile: ReturnType<typeof financialProfileOf>;
}

const unratedCurrencies = new Set<string>();
const hourFormats = new Map<string, Intl.DateTimeFormat>();

/** A time zone both Intl and PostgreSQL know, else UTC: a bad setting must never stop the AML evaluation. */
function usableTimeZone(timeZone: string): string {
  if (hourFormats.has(timeZone)) return timeZone;
  try {
    hourFormats.set(
      timeZone,
      new Intl.DateTimeFormat('en-GB', { timeZone, hour: 'numeric', hourCycle: 'h23' }),
    );
    return timeZone;
  } catch {
    return 'UTC';
  }
}

const { night_start_hour: nightStart, night_end_hour: nightEnd } = MARKERS['SG-003'].thresholds;

/** Whether the moment falls in the night (SG-003) in the time zone. */
export function atNight(at: Date, timeZone: string): boolean {
  const hour = Number(hourFormats.get(usableTimeZone(timeZone))!.format(at));
  return hour >= nightStart.value && hour < nightEnd.value;
}

const settingsOf = (row: SgTenantSettingsRow | undefined): TenantSettings => ({
  timeZone: usableTimeZone(row?.time_zone ?? 'UTC'),
  overrides: row?.marker_overrides ?? {},
  profile: financialProfileOf(row?.financial_profile ?? {}),
});

const tripOf = (event: ObservedEvent, finding: Finding): MarkerTrip => ({
  code: finding.code,
  userId: event.user_id,
  observedAt: event.occurred_at,
  measuredValue: finding.measuredValue,
  threshold: finding.threshold,
  details: finding.details,
  source: event.event_id,
});

/**
 * The markers and financial checks an evaluated batch of AML events can trip, in the evaluation's transaction:
 * deposits (SG-001 for a succeeded one, SG-002 for any, SG-004 for a failed one, the financial checks for a
 * succeeded one) and stakes placed at night in the tenant's time zone (SG-003: only then can the night share reach
 * its threshold). Withdrawals lower net deposits, and settlements and the other events trip nothing: they read
 * nothing. One statement per kind of event for the whole batch, never one per event.
 */
export async function evaluateMarkersForEvents(
  tx: Transaction<DB>,
  platform: Pick<Platform, 'log'>,
  events: readonly ObservedEvent[],
  now: Date,
): Promise<void> {
  const read = events.filter((e) => e.event_type === 'deposit' || e.event_type === 'wager');
  if (read.length === 0) return;
  // The AML findings of the batch commit whatever happens here: a fault of the markers must never hold up, retry
  // or dead-letter AML events. It is logged and alerted; a transient fault retries the batch as the AML one does.
  await savepoint(tx, 'safer_gambling_markers');
  try {
    await evaluate(tx, platform, read, now);
  } catch (error) {
    if (isTransient(error)) throw error;
    await rollbackToSavepoint(tx, 'safer_gambling_markers');
    platform.log.error(
      { err: error, events: read.length },
      'safer-gambling markers not evaluated for a batch',
    );
    await raiseAlert(
      tx,
      platform.log,
      {
        kind: 'safer_gambling_evaluation_failed',
        subject: read[0]!.tenant_id,
        message: 'Safer-gambling markers could not be evaluated for a batch of AML events',
        details: { event_ids: read.map((e) => e.event_id).slice(0, 50), error: String(error).slice(0, 500) },
        dedupeKey: `safer_gambling_evaluation_failed/${read[0]!.event_id}`,
      },
      now,
    );
  }
}

async function evaluate(
  tx: Transaction<DB>,
  platform: Pick<Platform, 'log'>,
  read: ObservedEvent[],
  now: Date,
): Promise<void> {
  const rows = await tenantSettingsOf(tx, [...new Set(read.map((e) => e.tenant_id))]);
  const byTenant = new Map(rows.map((row) => [row.tenant_id, row]));
  const settings = (tenantId: string) => settingsOf(byTenant.get(tenantId));

  const trips: Array<{ tenantId: string; trip: MarkerTrip }> = [];
  const observations: FinancialObservation[] = [];

  const deposits = read.filter((e) => e.event_type === 'deposit');
  const depositPoints = deposits.map((e): DepositPoint => {
    const s = settings(e.tenant_id);
    const chase = thresholdsOf('SG-002', s.overrides);
    return {
      tenant_id: e.tenant_id,
      user_id: e.user_id,
      at: e.occurred_at,
      status: e.status,
      chase_window_seconds: chase.window_seconds!,
      chase_min_loss_usd_cents: chase.min_net_loss_usd_cents!,
      profile_currency: s.profile.currency,
      profile_scale: minorScale(s.profile.currency),
    };
  });
  const measured = await depositMeasures(tx, depositPoints);
  deposits.forEach((event, i) => {
    const m = measured[i]!;
    const s = settings(event.tenant_id);
    const findings = [
      lossChasing({ chasingDeposits: Number(m.chasing_deposits) }, thresholdsOf('SG-002', s.overrides)),
    ];
    if (event.status === 'succeeded') {
      const spend = {
        windowUsdCents: Number(m.window_usd_cents),
        baselineUsdCents: Number(m.baseline_usd_cents),
        firstAt: m.first_at,
      };
      findings.push(spendEscalation(spend, event.occurred_at, thresholdsOf('SG-001', s.overrides)));
      if (m.net_24h === null || m.net_30d === null || m.net_90d === null) {
        // Once per currency and process: every deposit of every tenant of that profile would say it again.
        if (!unratedCurrencies.has(s.profile.currency)) {
          unratedCurrencies.add(s.profile.currency);
          platform.log.warn(
            { tenant_id: event.tenant_id, currency: s.profile.currency },
            'financial checks skipped: the financial profile currency has no rate (set it in the back office)',
          );
        }
      } else {
        const net = {
          rolling_24h: Number(m.net_24h),
          rolling_30d: Number(m.net_30d),
          rolling_90d: Number(m.net_90d),
        };
        const crossings = financialCrossings(net, s.profile);
        if (crossings.length > 0)
          observations.push({
            tenantId: event.tenant_id,
            userId: event.user_id,
            observedAt: event.occurred_at,
            source: event.event_id,
            currency: s.profile.currency,
            crossings,
          });
      }
    }
    if (event.status === 'failed')
      findings.push(
        failedDeposits({ failed: Number(m.failed_deposits) }, thresholdsOf('SG-004', s.overrides)),
      );
    for (const finding of findings)
      if (finding) trips.push({ tenantId: event.tenant_id, trip: tripOf(event, finding) });
  });

  const stakes = read.filter(
    (e) =>
      e.event_type === 'wager' &&
      e.status !== 'failed' &&
      atNight(e.occurred_at, settings(e.tenant_id).timeZone),
  );
  const stakePoints = stakes.map((e): StakePoint => ({
    tenant_id: e.tenant_id,
    user_id: e.user_id,
    at: e.occurred_at,
    time_zone: settings(e.tenant_id).timeZone,
  }));
  const stakeCounts = await stakeMeasures(tx, stakePoints);
  stakes.forEach((event, i) => {
    const s = settings(event.tenant_id);
    const finding = nightPlay(stakeCounts[i]!, s.timeZone, thresholdsOf('SG-003', s.overrides));
    if (finding) trips.push({ tenantId: event.tenant_id, trip: tripOf(event, finding) });
  });

  for (const [tenantId, found] of groupByTenant(trips))
    await recordMarkerTrips(tx, platform, tenantId, strongestPerMarker(found), now);
  await callFinancialChecks(tx, observations, now);
}

function groupByTenant(trips: Array<{ tenantId: string; trip: MarkerTrip }>): Map<string, MarkerTrip[]> {
  const byTenant = new Map<string, MarkerTrip[]>();
  for (const { tenantId, trip } of trips) byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), trip]);
  return byTenant;
}

/** Several events of a batch tripping one player's marker make one trip: the one that measured most. */
function strongestPerMarker(trips: MarkerTrip[]): MarkerTrip[] {
  const strongest = new Map<string, MarkerTrip>();
  for (const trip of trips) {
    const key = `${trip.userId}\u0000${trip.code}`;
    const kept = strongest.get(key);
    if (!kept || trip.measuredValue > kept.measuredValue) strongest.set(key, trip);
  }
  return [...strongest.values()];
}
