import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { emitEvent } from '../../platform/outbox.js';
import type { Source } from './exclusions.schemas.js';
import type { ExclusionRow } from './exclusions.store.js';

/**
 * Every exclusion is announced to every tenant of its environment. The registering tenant hears of its own row
 * as `operator`; every other tenant, like every regulator-list row, as `regulator_comprehensive`.
 */
export type ExclusionEvent =
  'exclusion.created' | 'exclusion.permanent' | 'exclusion.regulator_synced' | 'exclusion.expired';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** The spec's data of exclusion.created, also used for exclusion.permanent and exclusion.regulator_synced. */
function registeredData(row: ExclusionRow, source: Source) {
  return {
    exclusion_id: row.exclusion_id,
    user_email: row.email,
    user_phone: row.phone,
    duration: row.duration,
    is_permanent: row.is_permanent,
    expires_at: iso(row.expires_at),
    source,
  };
}

/** exclusion.expired: user_id only to the tenant that registered it (another tenant's user ids are not theirs). */
function expiredData(row: ExclusionRow, source: Source) {
  return {
    exclusion_id: row.exclusion_id,
    user_id: source === 'operator' ? row.user_id : null,
    duration: row.duration,
    expires_at: iso(row.expires_at),
    source,
  };
}

/** Writes the event to the outbox in the caller's transaction, one row per receiving tenant. */
export async function announce(
  tx: Transaction<DB>,
  input: { event: ExclusionEvent; row: ExclusionRow; tenantIds: string[]; at: Date },
): Promise<void> {
  const { event, row, at } = input;
  const data = event === 'exclusion.expired' ? expiredData : registeredData;
  const own = row.tenant_id !== null && input.tenantIds.includes(row.tenant_id) ? [row.tenant_id] : [];
  const others = input.tenantIds.filter((tenantId) => tenantId !== row.tenant_id);
  await emitEvent(tx, { tenantIds: own, event, data: data(row, 'operator'), at });
  await emitEvent(tx, { tenantIds: others, event, data: data(row, 'regulator_comprehensive'), at });
}
