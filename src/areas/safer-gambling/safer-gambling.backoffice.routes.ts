import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { requestStaffContext } from '../../platform/service-context.js';
import { SaferGamblingSettings, SaferGamblingSettingsRequest } from './safer-gambling.schemas.js';
import { saferGamblingSettings, setSaferGamblingSettings } from './service/settings.js';

const tags = ['safer-gambling'];
const TenantParams = Type.Object({ tenant_id: Type.String() });

/** A tenant's safer-gambling settings, set by the staff (audited), as the AML settings are. */
export function saferGamblingBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/tenants/:tenant_id/safer-gambling',
      {
        schema: {
          tags,
          summary: "A tenant's safer-gambling settings: its overrides, and what is in force",
          params: TenantParams,
          response: { 200: SaferGamblingSettings, ...errorResponses(404) },
        },
      },
      (req) => saferGamblingSettings(requestStaffContext(platform, req), req.params.tenant_id),
    );

    app.put(
      '/tenants/:tenant_id/safer-gambling',
      {
        schema: {
          tags,
          summary:
            "Set a tenant's time zone, marker threshold overrides, level policy or financial-check profile",
          description:
            'Each field given replaces the stored one; an absent one keeps it. An override outside its bounds, an unknown time zone or a policy out of its bounds refuses the whole request (400 invalid_request, each problem named).',
          params: TenantParams,
          body: SaferGamblingSettingsRequest,
          response: { 200: SaferGamblingSettings, ...errorResponses(400, 404) },
        },
      },
      (req) => setSaferGamblingSettings(requestStaffContext(platform, req), req.params.tenant_id, req.body),
    );
  };
}
