import type { Transaction } from 'kysely';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import { isOpen } from '../kyc.rules.js';
import { findCheckByTokenHash, lockUser, tenantEnvironment } from '../kyc.store.js';
import type { KycCheck } from '../kyc.tables.js';
import { alreadyFinal } from './errors.js';
import { hashToken } from './tokens.js';
import { markStarted, markSubmitted, recordActivity } from './transitions.js';

const notFound = () => new AppError('kyc_check_not_found', 'Unknown or expired vendor access token');

/**
 * The check behind a sandbox vendor token, locked for a step of the flow. Unknown and expired tokens, and
 * checks of live tenants (whose users use the production vendor), look alike: 404.
 */
async function checkOfToken(tx: Transaction<DB>, platform: Platform, token: string): Promise<KycCheck> {
  const found = await findCheckByTokenHash(tx, hashToken(token));
  if (!found || found.vendor_token_expires_at <= platform.clock.now()) throw notFound();
  if ((await tenantEnvironment(tx, found.tenant_id)) !== 'sandbox') throw notFound();
  await lockUser(tx, found.tenant_id, found.user_id);
  const check = (await findCheckByTokenHash(tx, hashToken(token))) ?? found;
  if (!isOpen(check.status)) throw alreadyFinal(check);
  return check;
}

const flowState = (check: KycCheck) => ({
  kyc_check_id: check.kyc_check_id,
  status: check.status,
  required_tier: check.required_tier,
  required_documents: check.required_documents,
});

/** The user opens the vendor flow: not_started → in_progress (kyc.started); again later changes nothing. */
export function beginVendorFlow(platform: Platform, token: string) {
  return platform.db.transaction().execute(async (tx) => {
    const check = await checkOfToken(tx, platform, token);
    const now = platform.clock.now();
    const next =
      check.status === 'not_started'
        ? await markStarted(tx, check, now)
        : await recordActivity(tx, check, now);
    return flowState(next);
  });
}

/** The user uploads the documents: in_progress → pending_review (kyc.submitted); then manual review decides. */
export function submitVendorFlow(platform: Platform, token: string) {
  return platform.db.transaction().execute(async (tx) => {
    const check = await checkOfToken(tx, platform, token);
    if (check.status === 'not_started') {
      throw new AppError('vendor_flow_not_begun', 'Begin the vendor flow before submitting documents');
    }
    const now = platform.clock.now();
    const next =
      check.status === 'in_progress'
        ? await markSubmitted(platform, tx, check, now)
        : await recordActivity(tx, check, now);
    return flowState(next);
  });
}
