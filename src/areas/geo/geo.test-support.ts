import type { LightMyRequestResponse } from 'fastify';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';

/** Drives the geo API as one tenant would. */
export class GeoDriver extends TenantDriver {
  /** Cuts this tenant over to the production resolver for geo, as its staff would for a live tenant. */
  async cutOver(): Promise<void> {
    const response = await this.t.backoffice('PUT', `/tenants/${this.tenant.tenantId}/cutover`, {
      areas: ['geo'],
    });
    if (response.statusCode !== 200) throw new Error(`cut-over failed: ${response.body}`);
  }

  /** A signup's check of this address; `extra` replaces or adds fields of the body. */
  check(ip_address: unknown, extra: object = {}): Promise<LightMyRequestResponse> {
    return this.api('POST', '/v1/geo/check', {
      ip_address,
      user_agent: 'UA/1.0',
      context: 'signup',
      ...extra,
    });
  }
}
