import type { TenantContext, TenantScopedContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { findCheck, latestCheck } from '../kyc.store.js';
import { isHeld, statusView } from './views.js';

export async function checkStatus(ctx: TenantContext, checkId: string) {
  const check = await findCheck(ctx.db, ctx.tenant.tenant_id, checkId);
  if (!check) throw new AppError('kyc_check_not_found', `No KYC check ${checkId}`);
  return statusView(check);
}

/** Whether a withdrawal of the user waits on verification: their latest check holds it (as its status says). */
export async function withdrawalHeldForKyc(ctx: TenantScopedContext, userId: string): Promise<boolean> {
  const check = await latestCheck(ctx.db, ctx.tenantId, userId);
  return check !== undefined && isHeld(check);
}
