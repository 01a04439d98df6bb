import type { Platform } from '../../platform/context.js';
import * as store from '../backoffice.store.js';
import { getTenant } from './tenants.js';

/** One tenant's audit log, newest first (404 for an unknown tenant). */
export async function auditLog(platform: Platform, tenantId: string, limit: number) {
  await getTenant(platform, tenantId);
  return store.listTenantAudit(platform.db, tenantId, limit);
}

/**
 * The audit log across tenants, newest first: staff actions on what belongs to no tenant (`tenant_id` null, such
 * as voiding a regulator row) and every tenant's entries, filtered by tenant and action.
 */
export function serviceAuditLog(
  platform: Platform,
  query: { limit: number; tenant_id?: string | undefined; action?: string | undefined },
) {
  return store.listServiceAudit(platform.db, query);
}
