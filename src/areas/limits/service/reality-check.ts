import { audit } from '../../../platform/audit.js';
import type { ServiceContext, TenantScopedContext } from '../../../platform/context.js';
import type { Executor } from '../../../platform/db/database.js';
import { AppError } from '../../../platform/errors.js';
import { findTenant } from '../../../platform/tenants.store.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { DEFAULT_REALITY_CHECK_SECONDS } from '../sessions/play-time.js';
import {
  playerInterval,
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

/**
 * A player's own interval (null: none), the default behind it (the tenant's, else the service's) and so the interval
 * in force: what a page shows when it tells the player's choice from the operator's default.
 */
export async function realityCheckOf(db: Executor, tenantId: string, userId: string) {
  const [own, tenantDefault] = await Promise.all([
    playerInterval(db, tenantId, userId),
    tenantDefaultInterval(db, tenantId),
  ]);
  const defaultSeconds = tenantDefault ?? DEFAULT_REALITY_CHECK_SECONDS;
  return {
    interval_seconds: own ?? null,
    default_interval_seconds: defaultSeconds,
    reality_check_interval_seconds: own ?? defaultSeconds,
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
