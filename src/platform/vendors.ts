import type { Executor } from './db/database.js';
import type { Tenant, VendorArea } from './db/platform-tables.js';
import { AppError } from './errors.js';
import { liveCutOverAreas, liveTenantCutOverExists } from './vendors.store.js';

export interface VendorImplementations<T> {
  /** Deterministic stub with the spec's documented triggers; every sandbox tenant gets it. */
  sandbox: T;
  /** The real vendor; absent when this deployment has none, in which case a cut-over live tenant gets a 409. */
  production?: T;
  /**
   * Whether the production implementation can answer now (its data loaded); absent: it can whenever it exists.
   * Asked by readiness only while a live tenant is cut over for the area, so it may start loading what is missing.
   */
  ready?(): boolean;
}

/**
 * The implementations of every vendor-backed area, built for each service instance by the composition root
 * (createService) and held on the platform: two services in one process never share one. Each area adds its entry
 * next to its vendor interface (`declare module '…/platform/vendors.js'`), so the platform names no area.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the areas' declarations
export interface Vendors {}

/** Implementations a test or tool supplies in place of the configured ones; the rest are built as usual. */
export type VendorOverrides = { [Area in keyof Vendors]?: Partial<Vendors[Area]> };

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
      `The ${area} area has not been cut over to production for this tenant; ask your account contact to enable it`,
    );
  }
  // Not a 503: no retry can succeed until the staff configure the deployment (a vendor that is configured but
  // down, such as lists that failed to load, answers its own retryable 503).
  if (!implementations.production) {
    throw new AppError(
      'vendor_not_configured',
      `The production ${area} vendor is not configured on this deployment, so retrying will not help; ask your account contact`,
    );
  }
  return implementations.production;
}

/** Whether any live tenant is served by the production vendor of an area (its data is then opened at start). */
export function anyLiveTenantCutOver(db: Executor, area: VendorArea): Promise<boolean> {
  return liveTenantCutOverExists(db, area);
}

/**
 * Whether every area an active live tenant is cut over for has its production implementation, ready to answer.
 * Each such area is asked (none skipped), so each starts loading what it lacks.
 */
export async function productionVendorsReady(db: Executor, vendors: Vendors): Promise<boolean> {
  const byArea = vendors as Partial<Record<VendorArea, VendorImplementations<unknown>>>;
  const ready = (await liveCutOverAreas(db)).map((area) => {
    const implementations = byArea[area];
    return implementations?.production !== undefined && (implementations.ready?.() ?? true);
  });
  return ready.every(Boolean);
}
