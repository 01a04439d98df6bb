import type { Executor } from '../../../platform/db/database.js';
import { policyOf, standingEffects } from '../safer-gambling.rules.js';
import { standingRow } from '../safer-gambling.store.js';

/**
 * What a player's safer-gambling standing sets in the player status, by the tenant's policy: marketing stops at the
 * policy's level; at high, with the policy's stop_deposits_at_high, deposits stop while an interaction is owed. One
 * statement (the status runs at every login); a player at level none, or never seen, is not restricted.
 */
export async function saferGamblingStanding(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<{ marketingAllowed: boolean; depositsStopped: boolean }> {
  const row = await standingRow(db, tenantId, userId);
  if (!row) return { marketingAllowed: true, depositsStopped: false };
  return standingEffects(row.risk_level, row.interaction_due_at !== null, policyOf(row.policy ?? {}));
}
