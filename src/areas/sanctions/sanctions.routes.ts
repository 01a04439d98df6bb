import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { Screening, ScreenRequest, StatusQuery } from './sanctions.schemas.js';
import { screeningStatus, screeningView, screenUser } from './service/screen.js';
import { sanctionsValidation } from './sanctions.validation.js';

const tags = ['sanctions'];

/** The tenant's sanctions API: statuses, counts and case ids, never the matched entities (tipping-off). */
export function sanctionsRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/sanctions/screen',
      {
        ...sanctionsValidation,
        config: { validationErrorCode: 'missing_fields' },
        schema: {
          tags,
          summary: 'Screen a user at signup',
          body: ScreenRequest,
          response: { 200: Screening, 201: Screening, ...errorResponses(400, 403, 409, 503) },
        },
      },
      async (req, reply) => {
        const { view, created } = await screenUser(platform, req.tenantContext, req.body);
        return reply.code(created ? 201 : 200).send(view);
      },
    );

    app.get(
      '/sanctions/status',
      {
        ...sanctionsValidation,
        config: { validationErrorCode: 'missing_fields' },
        schema: {
          tags,
          summary: "A user's current sanctions status",
          querystring: StatusQuery,
          response: { 200: Screening, ...errorResponses(400, 404) },
        },
      },
      async (req) => screeningView(await screeningStatus(req.tenantContext, req.query.user_id)),
    );
  };
}
