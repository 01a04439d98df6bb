import type { Transaction } from 'kysely';
import type { Platform, TenantContext } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import { fromUsdCentsFloor, toUsdCents } from '../../../platform/fx.js';
import { newId } from '../../../platform/ids.js';
import { insertOnce, requestFingerprint } from '../../../platform/idempotency.js';
import { formatMoney } from '../../../platform/money.js';
import { withTransaction } from '../../../platform/service-context.js';
import { recordContactsSent } from '../../exclusions/index.js';
import {
  rank,
  RETRY_AFTER_REJECTION_SECONDS,
  ruleOf,
  tierFor,
  TIERS,
  VENDOR_TOKEN_TTL_SECONDS,
  type KycTier,
} from '../kyc.rules.js';
import type { StartKycRequest } from '../kyc.schemas.js';
import { findUser, latestCheck, lockUser } from '../kyc.store.js';
import type { KycCheck } from '../kyc.tables.js';
import { kycVendorFor } from '../kyc.vendor.js';
import { noRate } from './errors.js';
import { issueToken } from './tokens.js';
import { approveCheck, recordActivity, rejectCheck } from './transitions.js';
import { isHeld } from './views.js';

function checkView(check: KycCheck, token: string) {
  return {
    kyc_check_id: check.kyc_check_id,
    user_id: check.user_id,
    required_tier: check.required_tier,
    required_documents: check.required_documents,
    vendor_access_token: token,
    vendor_expires_in: VENDOR_TOKEN_TTL_SECONDS,
    withdrawal_held: isHeld(check),
    // Approved at once (sandbox autoapprove): kyc.approved is already on its way.
    estimated_clear_time:
      check.status === 'approved' ? 'immediate' : ruleOf(check.required_tier).estimatedClearTime,
  };
}

/** The withdrawal fits the verified tier: no check, nothing held. Amounts left are in the request currency. */
async function fastPath(
  tx: Transaction<DB>,
  input: StartKycRequest,
  required: KycTier,
  verified: KycTier,
  totalUsd: number,
) {
  const ceiling = ruleOf(verified).ceilingUsdCents;
  const remaining =
    ceiling === null
      ? null
      : await fromUsdCentsFloor(tx, Math.max(0, ceiling - totalUsd), input.currency, noRate);
  const next = TIERS[rank(verified) + 1]?.tier;
  return {
    kyc_check_id: null,
    user_id: input.user_id,
    required_tier: required,
    required_documents: [],
    withdrawal_held: false,
    withdrawal_remaining_cents: remaining,
    message:
      remaining === null
        ? 'No verification needed: the user is verified at the highest tier.'
        : `No verification needed. ${formatMoney(remaining, input.currency)} more can be withdrawn before ${next} verification is required.`,
  };
}

/**
 * POST /v1/kyc/start: the tier the user's lifetime total plus this withdrawal requires decides. Within the
 * verified tier: the fast path (200). Above it: a check for that tier, the withdrawal held (201); the same start
 * while that check is open answers it again (200) with a fresh token; another tier while one is open is 409.
 */
export async function startKyc(platform: Platform, ctx: TenantContext, input: StartKycRequest) {
  // Before anything else, so a live tenant learns KYC is not enabled on its first call, not its first big withdrawal.
  const vendor = kycVendorFor(platform.vendors, ctx.tenant);
  const tenantId = ctx.tenant.tenant_id;
  // The player's contacts entitle the tenant to hear of the register's exclusions of them (self-exclusion area).
  await recordContactsSent(platform, tenantId, input);
  return withTransaction(ctx, async (tx, ctx) => {
    await lockUser(tx, tenantId, input.user_id);
    const now = ctx.clock.now();
    const usd = await toUsdCents(tx, input.withdrawal_amount_cents, input.currency, noRate);
    const user = await findUser(tx, tenantId, input.user_id);
    const verified = user?.verified_tier ?? 'tier_0';
    const total = (user?.cumulative_withdrawn_usd_cents ?? 0) + usd;
    const required = tierFor(total);
    if (rank(required) <= rank(verified)) {
      return { created: false, body: await fastPath(tx, input, required, verified, total) };
    }

    const latest = await latestCheck(tx, tenantId, input.user_id);
    const retryAt =
      latest?.decided_at && new Date(latest.decided_at.getTime() + RETRY_AFTER_REJECTION_SECONDS * 1000);
    if (latest?.status === 'rejected' && retryAt && retryAt > now) {
      throw new AppError(
        'ceiling_exceeded',
        `The withdrawal exceeds the user's ${verified} ceiling and verification was rejected; a new verification can start from ${retryAt.toISOString()}`,
      );
    }

    const issued = issueToken(now);
    const { row, created } = await insertOnce<KycCheck>(tx, {
      table: 'kyc_checks',
      key: ['tenant_id', 'user_id'],
      while: { column: 'is_open', value: true },
      values: {
        kyc_check_id: newId('kyc_check'),
        tenant_id: tenantId,
        user_id: input.user_id,
        required_tier: required,
        required_documents: JSON.stringify(ruleOf(required).documents),
        status: 'not_started',
        withdrawal_id: input.withdrawal_id ?? null,
        withdrawal_amount_cents: input.withdrawal_amount_cents,
        currency: input.currency,
        withdrawal_usd_cents: usd,
        vendor_token_hash: issued.vendor_token_hash,
        vendor_token_expires_at: issued.vendor_token_expires_at,
        request_hash: requestFingerprint({ required_tier: required }),
        created_at: now,
        updated_at: now,
        last_activity_at: now,
      },
      conflict: (open) =>
        new AppError(
          'already_in_progress',
          `Check ${open.kyc_check_id} for ${open.required_tier} is open for this user; this withdrawal needs ${required}`,
          { kyc_check_id: open.kyc_check_id },
        ),
    });

    if (!created) {
      // The token exists only as a hash: repeating the start issues a new one, and the old one stops working.
      const { token, ...stored } = issueToken(now);
      return { created: false, body: checkView(await recordActivity(tx, row, now, stored), token) };
    }

    const opening = await vendor.openSession({
      kycCheckId: row.kyc_check_id,
      userId: row.user_id,
      email: input.email,
      phone: input.phone,
      requiredTier: required,
      requiredDocuments: row.required_documents,
    });
    const decision = { by: 'sandbox_vendor', reason: null };
    let check = row;
    if (opening.outcome === 'approve') check = await approveCheck(tx, row, now, decision);
    else if (opening.outcome === 'reject') check = await rejectCheck(tx, row, now, decision);
    else check = await recordActivity(tx, row, now);
    return { created: true, body: checkView(check, issued.token) };
  });
}
