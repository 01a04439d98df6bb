import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { emitEvent } from '../../../platform/outbox.js';
import { withTransaction } from '../../../platform/service-context.js';
import { versionOn } from '../geo.rules.js';
import type { SetCountryStatusRequest } from '../geo.schemas.js';
import { tierMoved } from '../geo.events.js';
import * as store from '../geo.store.js';

/**
 * The staff's tier move. Setting the status an entry already has changes nothing (200, no event, no new
 * version). Otherwise the version moves, the change is recorded, and every tenant is told, in one transaction.
 */
export async function setCountryStatus(ctx: ServiceContext, rawCode: string, input: SetCountryStatusRequest) {
  const code = rawCode.toUpperCase();
  return withTransaction(ctx, async (tx, ctx) => {
    const entry = await store.findCountry(tx, code, { forUpdate: true });
    if (!entry) throw new AppError('country_not_found', `No entry ${code} in the country list`);
    if (entry.status === input.status) return entry;

    const now = ctx.clock.now();
    const { revision } = await store.bumpListVersion(tx, versionOn(now), now);
    const updated = await store.setCountryStatus(tx, code, input.status, now);
    await store.recordChange(tx, {
      code,
      previous_status: entry.status,
      new_status: input.status,
      reason: input.reason,
      revision,
      changed_at: now,
      request_id: ctx.requestId,
    });
    await emitEvent(tx, {
      tenantIds: await store.allTenantIds(tx),
      ...tierMoved({
        code,
        name: entry.name,
        previousStatus: entry.status,
        newStatus: input.status,
        reason: input.reason,
      }),
      at: now,
    });
    // Service-wide (no tenant): the staff's decision, beside the list's own change log.
    await audit(tx, ctx, 'geo.country_status_changed', {
      code,
      from: entry.status,
      to: input.status,
      reason: input.reason,
      revision,
    });
    return updated;
  });
}
