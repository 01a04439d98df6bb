import type { Platform } from '../../platform/context.js';
import { recordAudit } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { AML_RULES } from './aml.rules.js';
import { r009WindowSetting, saveR009Window, tenantExists } from './aml.store.js';

/** Per-tenant AML settings, set by the staff: today only R-009's rolling window. */

async function assertTenant(platform: Platform, tenantId: string): Promise<void> {
  if (!(await tenantExists(platform.db, tenantId))) {
    throw new AppError('tenant_not_found', 404, `No tenant ${tenantId}`);
  }
}

export async function amlSettings(platform: Platform, tenantId: string) {
  await assertTenant(platform, tenantId);
  // A tenant that has set no window has the catalogue's default.
  const seconds =
    (await r009WindowSetting(platform.db, tenantId)) ?? AML_RULES['R-009'].parameters.default_window_seconds;
  return { tenant_id: tenantId, r009_window_hours: seconds / 3600, r009_window_seconds: seconds };
}

/** A new window applies to events evaluated from now on; trips already recorded keep their cooldown. */
export async function setR009Window(platform: Platform, tenantId: string, hours: number, requestId: string) {
  await assertTenant(platform, tenantId);
  const now = platform.clock.now();
  await platform.db.transaction().execute(async (tx) => {
    await saveR009Window(tx, tenantId, hours * 3600, now);
    await recordAudit(tx, {
      tenantId,
      actor: 'backoffice',
      action: 'aml.settings_changed',
      requestId,
      details: { r009_window_hours: hours },
      at: now,
    });
  });
  return amlSettings(platform, tenantId);
}
