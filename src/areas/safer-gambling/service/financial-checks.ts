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
    const userIds = [...new Set(observed.map((o) => o.userId))].sort();
    // The player's lock: two evaluations of the same player's deposits call for a check once.
    for (const userId of userIds) await lockPlayer(tx, tenantId, userId);
    const since = new Date(now.getTime() - LONGEST_WINDOW_SECONDS * 1000);
    const last = new Map(
      (await latestFinancialChecks(tx, tenantId, userIds, since)).map((row) => [
        `${row.user_id}/${row.level}/${row.window_name}`,
        new Date(row.called_at),
      ]),
    );
    const rows = [];
    for (const o of observed) {
      for (const crossing of o.crossings) {
        const key = `${o.userId}/${crossing.level}/${crossing.window}`;
        const lastCalled = last.get(key);
        if (lastCalled && lastCalled.getTime() > now.getTime() - WINDOW_SECONDS[crossing.window] * 1000)
          continue;
        last.set(key, now);
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
}
