import type { TenantScopedContext } from '../../../platform/context.js';
import { ruleOf } from '../kyc.rules.js';
import { findUser } from '../kyc.store.js';

/** The KYC tier record. A user the service has never seen is at tier_0 with nothing withdrawn. */
export async function tierRecord(ctx: TenantScopedContext, userId: string) {
  const user = await findUser(ctx.db, ctx.tenantId, userId);
  const verified = user?.verified_tier ?? 'tier_0';
  const cumulative = user?.cumulative_withdrawn_usd_cents ?? 0;
  const ceiling = ruleOf(verified).ceilingUsdCents;
  return {
    user_id: userId,
    verified_tier: verified,
    verified_at: user?.verified_at ?? null,
    max_withdrawal_cents: ceiling === null ? null : Math.max(0, ceiling - cumulative),
    cumulative_withdrawn_cents: cumulative,
    next_tier_required_at_cents: ceiling === null ? null : ceiling + 1,
  };
}
