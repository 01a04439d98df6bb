import type { TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { findCheck } from '../kyc.store.js';
import { statusView } from './views.js';

export async function checkStatus(ctx: TenantContext, checkId: string) {
  const check = await findCheck(ctx.db, ctx.tenant.tenant_id, checkId);
  if (!check) throw new AppError('kyc_check_not_found', `No KYC check ${checkId}`);
  return statusView(check);
}
