import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { requestStaffContext } from '../../platform/service-context.js';
import { RegulatorRequest, RegulatorResult } from './exclusions.schemas.js';
import { addRegulatorEntries } from './exclusions.service.js';

/**
 * The regulator's comprehensive form, for the service staff: registered inside the back office's scope (under
 * /backoffice/v1, behind its token). There is no per-key rate limit in that scope, so no rateLimitBucket.
 */
export function regulatorRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/regulator/exclusions',
      {
        config: { validationErrorCode: 'invalid_payload' },
        schema: {
          tags: ['exclusions'],
          summary: "Add entries of the regulator's comprehensive form to the master list",
          description:
            'One entry, or a batch under entries (1 to 1000), each with email and/or phone, duration and environment. 201 when any row was created, 200 when every entry was already on the list.',
          body: RegulatorRequest,
          response: { 200: RegulatorResult, 201: RegulatorResult, ...errorResponses(400, 401) },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const entries = 'entries' in body ? body.entries : [body];
        const { result, created } = await addRegulatorEntries(
          platform,
          requestStaffContext(platform, request),
          entries,
        );
        return reply.code(created > 0 ? 201 : 200).send(result);
      },
    );
  };
}
