import { sql } from 'kysely';
import type { Executor } from './db/database.js';
import type { Tenant, VendorArea } from './db/platform-tables.js';
import { AppError } from './errors.js';

export interface VendorImplementations<T> {
  /** Deterministic stub with the spec's documented triggers; every sandbox tenant gets it. */
  sandbox: T;
  /** The real vendor; absent until it is built, in which case a cut-over live tenant gets a 503. */
  production?: T;
}

/**
 * Picks the implementation of a vendor-backed area for a tenant: sandbox tenants always get the stub; a live
 * tenant gets the production implementation once the service's staff have cut that area over for it.
 */
export function selectVendor<T>(
  tenant: Tenant,
  area: VendorArea,
  implementations: VendorImplementations<T>,
): T {
  if (tenant.environment === 'sandbox') return implementations.sandbox;
  if (!tenant.cutover_areas.includes(area)) {
    throw new AppError(
      'cutover_required',
      403,
      `The ${area} area has not been cut over to production for this tenant; ask your account contact to enable it`,
    );
  }
  if (!implementations.production) {
    throw new AppError(
      'vendor_unavailable',
      503,
      `The production ${area} vendor is not available; retry with backoff`,
    );
  }
  return implementations.production;
}

/** Whether any live tenant is served by the production vendor of an area (its data is then opened at start). */
export async function anyLiveTenantCutOver(db: Executor, area: VendorArea): Promise<boolean> {
  const row = await db
    .selectFrom('tenants')
    .select(sql<number>`1`.as('one'))
    .where('environment', '=', 'live')
    .where(sql<boolean>`cutover_areas @> ${JSON.stringify([area])}::jsonb`)
    .executeTakeFirst();
  return row !== undefined;
}
