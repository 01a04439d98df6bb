import type { KycCheck } from '../kyc.tables.js';

/** Held until approved; an expired check's withdrawal is cancelled, so it is no longer held either. */
export const isHeld = (check: KycCheck) => check.status !== 'approved' && check.status !== 'expired';

/** A check as the tenant sees it (GET /v1/kyc/status, manual review). */
export function statusView(check: KycCheck) {
  return {
    kyc_check_id: check.kyc_check_id,
    user_id: check.user_id,
    status: check.status,
    required_tier: check.required_tier,
    required_documents: check.required_documents,
    withdrawal_held: isHeld(check),
    created_at: check.created_at,
    updated_at: check.updated_at,
  };
}
