import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { saveR009Window } from '../aml.store.js';
import { amlSettings, assertTenant } from './aml-settings.js';

/** A new window applies to events evaluated from now on; trips already recorded keep their cooldown. */
export async function setR009Window(ctx: ServiceContext, tenantId: string, hours: number) {
  await assertTenant(ctx, tenantId);
  await withTransaction(ctx, async (tx, ctx) => {
    await saveR009Window(tx, tenantId, hours * 3600, ctx.clock.now());
    await audit(tx, forTenant(ctx, tenantId), 'aml.settings_changed', { r009_window_hours: hours });
  });
  return amlSettings(ctx, tenantId);
}
