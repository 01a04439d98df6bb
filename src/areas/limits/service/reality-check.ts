import { audit } from '../../../platform/audit.js';
import type { ServiceContext, TenantScopedContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { findTenant } from '../../../platform/tenants.store.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { DEFAULT_REALITY_CHECK_SECONDS } from '../sessions/play-time.js';
import {
  savePlayerInterval,
  saveTenantDefaultInterval,
  tenantDefaultInterval,
} from '../sessions/sessions.store.js';
import { realityCheckIntervalOf } from './play-time.js';

/**
 * A player's reality-check interval (seconds between reminders during a session), or null for the tenant's default.
 * It applies to sessions started after it; a session keeps the interval it started with.
 */
export async function setRealityCheck(ctx: TenantScopedContext, userId: string, seconds: number | null) {
  const { tenantId } = ctx;
  await savePlayerInterval(ctx.db, tenantId, userId, seconds, ctx.clock.now());
  return {
    user_id: userId,
    interval_seconds: seconds,
    reality_check_interval_seconds: await realityCheckIntervalOf(ctx.db, tenantId, userId),
  };
}

async function assertTenant(ctx: ServiceContext, tenantId: string): Promise<void> {
  if (!(await findTenant(ctx.db, tenantId))) throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
}

/** A tenant's default interval for players who set none, as the staff set it (null: the service's default). */
export async function tenantRealityCheck(ctx: ServiceContext, tenantId: string) {
  await assertTenant(ctx, tenantId);
  const own = (await tenantDefaultInterval(ctx.db, tenantId)) ?? null;
  return {
    tenant_id: tenantId,
    interval_seconds: own,
    reality_check_interval_seconds: own ?? DEFAULT_REALITY_CHECK_SECONDS,
  };
}

/** Sets a tenant's default, audited to its log; sessions started from now on take it. */
export async function setTenantRealityCheck(ctx: ServiceContext, tenantId: string, seconds: number | null) {
  await assertTenant(ctx, tenantId);
  await withTransaction(ctx, async (tx, ctx) => {
    await saveTenantDefaultInterval(tx, tenantId, seconds, ctx.clock.now());
    await audit(tx, forTenant(ctx, tenantId), 'reality_check.default_changed', { interval_seconds: seconds });
  });
  return tenantRealityCheck(ctx, tenantId);
}
