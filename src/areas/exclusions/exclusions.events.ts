import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import type { EventCatalogue } from '../../platform/events.js';
import { emitEvent } from '../../platform/outbox.js';
import { SOURCE_NAMES } from './exclusions.rules.js';
import type { Source } from './exclusions.schemas.js';
import { tenantsThatShowed, type ExclusionRow } from './exclusions.store.js';

/**
 * An exclusion is announced to the tenant that registered it (as `operator`, with its contacts) and to every other
 * tenant of its environment that has shown the row's email or phone (as `regulator_comprehensive`, with only the
 * contacts that tenant has shown, the email in its canonical form). A tenant that has never shown a contact is never told of another operator's
 * player: it learns of the exclusion when it checks the contact, and from then on from these events.
 */
export type ExclusionEvent =
  | 'exclusion.created'
  | 'exclusion.permanent'
  | 'exclusion.regulator_synced'
  | 'exclusion.expired'
  | 'exclusion.voided';

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
    user_id: source === SOURCE_NAMES.own ? row.user_id : null,
    duration: row.duration,
    expires_at: iso(row.expires_at),
    source,
  };
}

/** exclusion.voided: the row was registered in error and no longer matches; stop enforcing it. */
function voidedData(row: ExclusionRow, source: Source) {
  return {
    exclusion_id: row.exclusion_id,
    user_id: source === SOURCE_NAMES.own ? row.user_id : null,
    duration: row.duration,
    is_permanent: row.is_permanent,
    voided_at: iso(row.voided_at),
    source,
  };
}

const DATA: Record<ExclusionEvent, (row: ExclusionRow, source: Source) => EventCatalogue[ExclusionEvent]> = {
  'exclusion.created': registeredData,
  'exclusion.permanent': registeredData,
  'exclusion.regulator_synced': registeredData,
  'exclusion.expired': expiredData,
  'exclusion.voided': voidedData,
};

/** What a tenant may be shown of another's row: the contacts it has shown, the others as null. */
const SHOWN = [
  { email: true, phone: true },
  { email: true, phone: false },
  { email: false, phone: true },
] as const;

/** Writes the event to the outbox in the caller's transaction, one row per receiving tenant. */
export async function announce(
  tx: Transaction<DB>,
  input: { event: ExclusionEvent; row: ExclusionRow; at: Date },
): Promise<void> {
  const { event, row, at } = input;
  const data = DATA[event];
  if (row.tenant_id !== null) {
    await emitEvent(tx, { tenantIds: [row.tenant_id], event, data: data(row, SOURCE_NAMES.own), at });
  }
  const others = await tenantsThatShowed(tx, row);
  for (const shown of SHOWN) {
    const tenantIds = others
      .filter((other) => other.email === shown.email && other.phone === shown.phone)
      .map((other) => other.tenant_id);
    if (tenantIds.length === 0) continue;
    // The email in its canonical form: the form as registered may carry a +tag naming the other operator.
    const visible = {
      ...row,
      email: shown.email ? row.email_canonical : null,
      phone: shown.phone ? row.phone : null,
    };
    await emitEvent(tx, { tenantIds, event, data: data(visible, SOURCE_NAMES.other), at });
  }
}
