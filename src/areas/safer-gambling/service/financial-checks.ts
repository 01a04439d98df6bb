import type { Transaction } from 'kysely';
import type { DB } from '../../../platform/db/schema.js';
import { newId } from '../../../platform/ids.js';
import { emitEvent } from '../../../platform/outbox.js';
import { WINDOW_SECONDS } from '../safer-gambling.rules.js';
import { insertFinancialChecks, latestFinancialChecks } from '../safer-gambling.evaluation.store.js';
import { lockPlayer } from '../safer-gambling.store.js';
import type { Crossing } from './evaluate-decisions.js';

/** A player's net deposits crossing thresholds of the tenant's profile, as a succeeded deposit found them. */
export interface FinancialObservation {
  tenantId: string;
  userId: string;
  /** The deposit's time, and its AML event's id. */
  observedAt: Date;
  source: string;
  currency: string;
  crossings: Crossing[];
}

const LONGEST_WINDOW_SECONDS = Math.max(...Object.values(WINDOW_SECONDS));

/**
 * Calls for each financial check a crossing asks for: a row in sg_financial_checks and
 * player.financial_check_required. Once per player, level and window: not again until the window's own span
 * (24 hours, 30 or 90 days) has passed since the last one was called (service clock), so a player whose net
 * deposits stay over a threshold is called for again once per span, never per deposit.
 */
export async function callFinancialChecks(
  tx: Transaction<DB>,
  observations: FinancialObservation[],
  now: Date,
): Promise<void> {
  const byTenant = new Map<string, FinancialObservation[]>();
  for (const o of observations) byTenant.set(o.tenantId, [...(byTenant.get(o.tenantId) ?? []), o]);
  for (const [tenantId, observed] of byTenant) {
    // Most crossings were called for already (net deposits stay over a threshold for a while): one read finds them,
    // and only players with a check to call are locked and read again, so two evaluations call for it once.
    const due = await notYetCalled(tx, tenantId, observed, now);
    if (due.length === 0) continue;
    const userIds = [...new Set(due.map((o) => o.userId))].sort();
    for (const userId of userIds) await lockPlayer(tx, tenantId, userId);
    await call(tx, tenantId, await notYetCalled(tx, tenantId, due, now), now);
  }
}

const keyOf = (userId: string, level: string, window: string) => `${userId}/${level}/${window}`;

/** The observations with only their crossings not called for within their window's span, in the batch too. */
async function notYetCalled(
  tx: Transaction<DB>,
  tenantId: string,
  observed: FinancialObservation[],
  now: Date,
): Promise<FinancialObservation[]> {
  const userIds = [...new Set(observed.map((o) => o.userId))];
  const since = new Date(now.getTime() - LONGEST_WINDOW_SECONDS * 1000);
  const last = new Map(
    (await latestFinancialChecks(tx, tenantId, userIds, since)).map((row) => [
      keyOf(row.user_id, row.level, row.window_name),
      new Date(row.called_at).getTime(),
    ]),
  );
  const due: FinancialObservation[] = [];
  for (const o of observed) {
    const crossings = o.crossings.filter((c) => {
      const key = keyOf(o.userId, c.level, c.window);
      const lastCalled = last.get(key);
      if (lastCalled !== undefined && lastCalled > now.getTime() - WINDOW_SECONDS[c.window] * 1000)
        return false;
      // A second deposit of the batch crossing the same threshold is the same crossing.
      last.set(key, now.getTime());
      return true;
    });
    if (crossings.length > 0) due.push({ ...o, crossings });
  }
  return due;
}

async function call(tx: Transaction<DB>, tenantId: string, due: FinancialObservation[], now: Date) {
  const rows = [];
  for (const o of due) {
    for (const crossing of o.crossings) {
      rows.push({
        check_id: newId('financial_check'),
        tenant_id: tenantId,
        user_id: o.userId,
        level: crossing.level,
        window_name: crossing.window,
        net_deposits_cents: crossing.netDepositsCents,
        currency: o.currency,
        threshold_cents: crossing.thresholdCents,
        observed_at: o.observedAt,
        called_at: now,
        source: o.source,
      });
      await emitEvent(tx, {
        tenantIds: tenantId,
        event: 'player.financial_check_required',
        data: {
          user_id: o.userId,
          level: crossing.level,
          net_deposits_cents: crossing.netDepositsCents,
          currency: o.currency,
          window: crossing.window,
        },
        at: now,
      });
    }
  }
  await insertFinancialChecks(tx, rows);
}
