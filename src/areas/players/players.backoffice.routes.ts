import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { requestStaffContext } from '../../platform/service-context.js';
import { ErasureRequestBody, StaffErasureRequest } from './players.schemas.js';
import { erasureRequestsOf, requestErasure, toStaffErasureRequest } from './service/erasure.js';

const tags = ['data'];
const params = Type.Object({
  tenant_id: Type.String({ minLength: 1, maxLength: 200 }),
  user_id: Type.String({ minLength: 1, maxLength: 200 }),
});

/** A player's erasure from the staff (docs/data.md): the same request as the operator's, with the records counted. */
export function playerBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/tenants/:tenant_id/players/:user_id/erasure-requests',
      {
        schema: {
          tags,
          summary: "Erase one of a tenant's players' data, within the law (audited)",
          params,
          body: ErasureRequestBody,
          response: { 200: StaffErasureRequest, 201: StaffErasureRequest, ...errorResponses(400, 404, 409) },
        },
      },
      async (req, reply) => {
        const { tenant_id: tenantId, user_id: userId } = req.params;
        const ctx = requestStaffContext(platform, req);
        const { request, created } = await requestErasure(platform, ctx, tenantId, userId, req.body);
        return reply.code(created ? 201 : 200).send(toStaffErasureRequest(request, userId));
      },
    );

    app.get(
      '/tenants/:tenant_id/players/:user_id/erasure-requests',
      {
        schema: {
          tags,
          summary: "A player's erasure requests, oldest first",
          params,
          response: { 200: Type.Object({ erasure_requests: Type.Array(StaffErasureRequest) }) },
        },
      },
      async (req) => {
        const { tenant_id: tenantId, user_id: userId } = req.params;
        const rows = await erasureRequestsOf(platform, tenantId, userId);
        return { erasure_requests: rows.map((row) => toStaffErasureRequest(row, userId)) };
      },
    );
  };
}
