import type { ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { AML_RULES } from '../aml.rules.js';
import { findTenant } from '../../../platform/tenants.store.js';
import { r009WindowSetting } from '../aml.store.js';

/** Per-tenant AML settings, set by the staff: today only R-009's rolling window. */

export async function assertTenant(ctx: ServiceContext, tenantId: string): Promise<void> {
  if (!(await findTenant(ctx.db, tenantId))) {
    throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
  }
}

export async function amlSettings(ctx: ServiceContext, tenantId: string) {
  await assertTenant(ctx, tenantId);
  // A tenant that has set no window has the catalogue's default.
  const seconds =
    (await r009WindowSetting(ctx.db, tenantId)) ?? AML_RULES['R-009'].parameters.default_window_seconds;
  return { tenant_id: tenantId, r009_window_hours: seconds / 3600, r009_window_seconds: seconds };
}
