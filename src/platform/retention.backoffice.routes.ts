import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from './context.js';
import { retentionSettings, setRetentionOverrides } from './retention-overrides.js';
import { RetentionOverridesRequest, RetentionSettings } from './retention.schemas.js';
import { errorResponses } from './schemas.js';
import { requestStaffContext } from './service-context.js';

const tags = ['data'];
const TenantParams = Type.Object({ tenant_id: Type.String() });

/** A tenant's retention periods within their legal bounds (docs/data.md), set by the staff (audited). */
export function retentionBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/tenants/:tenant_id/retention',
      {
        schema: {
          tags,
          summary:
            "A tenant's retention periods: each table's default, override, bounds and what is in force",
          params: TenantParams,
          response: { 200: RetentionSettings, ...errorResponses(404) },
        },
      },
      (req) => retentionSettings(requestStaffContext(platform, req), req.params.tenant_id),
    );

    app.put(
      '/tenants/:tenant_id/retention',
      {
        schema: {
          tags,
          summary: "Set or clear a tenant's retention period for some tables, within their bounds",
          description:
            'Each table given takes its period (null: the default again); an absent table keeps its override. A table the tenant may not change (400 retention_not_overridable) or a period beyond its bounds (400 retention_out_of_bounds) refuses the whole request, each problem named.',
          params: TenantParams,
          body: RetentionOverridesRequest,
          response: { 200: RetentionSettings, ...errorResponses(400, 404) },
        },
      },
      (req) => setRetentionOverrides(requestStaffContext(platform, req), req.params.tenant_id, req.body),
    );
  };
}
