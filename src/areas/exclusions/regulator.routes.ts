import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { RegulatorRequest, RegulatorResult } from './exclusions.schemas.js';
import { addRegulatorEntries } from './regulator.service.js';

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
          body: RegulatorRequest,
          response: { 200: RegulatorResult, 201: RegulatorResult, ...errorResponses(400, 401) },
        },
      },
      async (request, reply) => {
        const { result, created } = await addRegulatorEntries(platform, request.body.entries);
        return reply.code(created > 0 ? 201 : 200).send(result);
      },
    );
  };
}
