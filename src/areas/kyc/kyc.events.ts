import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import type { EventCatalogue } from '../../platform/events.js';
import { emitEvent } from '../../platform/outbox.js';
import type { KycCheck } from './kyc.tables.js';

/** Every event the KYC area emits, one per move of a check (service/transitions.ts). */
export type KycEvent =
  'kyc.started' | 'kyc.submitted' | 'kyc.approved' | 'kyc.tier_upgraded' | 'kyc.rejected' | 'kyc.expired';

/** What every KYC event but kyc.approved carries: the check as the tenant knows it. */
export const statusData = (check: KycCheck) => ({
  kyc_check_id: check.kyc_check_id,
  user_id: check.user_id,
  status: check.status,
  required_tier: check.required_tier,
});

/** KYC events go to the tenant that owns the check only, in the caller's transaction. */
export const emitKycEvent = <Event extends KycEvent>(
  tx: Transaction<DB>,
  check: KycCheck,
  event: Event,
  data: EventCatalogue[Event],
  now: Date,
) => emitEvent(tx, { tenantIds: check.tenant_id, event, data, at: now });
