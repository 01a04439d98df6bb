import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../../platform/context.js';
import { errorResponses } from '../../../platform/schemas.js';
import { requestStaffContext } from '../../../platform/service-context.js';
import { setTenantRealityCheck, tenantRealityCheck } from '../service/reality-check.js';
import { RealityCheckRequest, TenantRealityCheck } from './sessions.schemas.js';

const tags = ['limits'];
const TenantParams = Type.Object({ tenant_id: Type.String() });

/** A tenant's default reality-check interval, set by the staff (audited), as the AML settings are. */
export function playSessionBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/tenants/:tenant_id/reality-check',
      {
        schema: { tags, params: TenantParams, response: { 200: TenantRealityCheck, ...errorResponses(404) } },
      },
      (req) => tenantRealityCheck(requestStaffContext(platform, req), req.params.tenant_id),
    );

    app.put(
      '/tenants/:tenant_id/reality-check',
      {
        schema: {
          tags,
          params: TenantParams,
          body: RealityCheckRequest,
          response: { 200: TenantRealityCheck, ...errorResponses(400, 404) },
        },
      },
      (req) =>
        setTenantRealityCheck(
          requestStaffContext(platform, req),
          req.params.tenant_id,
          req.body.interval_seconds,
        ),
    );
  };
}
