import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import {
  AmlEventRequest,
  CasesQuery,
  EventAck,
  ScreenRequest,
  ScreenResult,
  UserCases,
} from './aml.schemas.js';
import { casesForUser } from './service/user-cases.js';
import { ingestEvent } from './service/ingest-event.js';
import { screenWithdrawal } from './service/screen-withdrawal.js';

// The spec's one AML 400 code answers every validation failure of the area.
const config = { validationErrorCode: 'invalid_event' } as const;
const tags = ['aml'];

/** The tenant's AML API. Responses carry rule codes and scores only: never rule descriptions or context. */
export function amlRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/aml/event',
      {
        config: { ...config, rateLimitBucket: 'aml_event' },
        schema: {
          tags,
          summary: 'Record a transaction event for asynchronous monitoring',
          body: AmlEventRequest,
          response: { 202: EventAck, ...errorResponses(400, 409, 503) },
        },
      },
      async (req, reply) => reply.code(202).send(await ingestEvent(platform, req.tenantContext, req.body)),
    );

    app.post(
      '/aml/screen',
      {
        config,
        schema: {
          tags,
          summary: 'Real-time screen of a withdrawal (mandatory at USD 10,000 or more)',
          body: ScreenRequest,
          response: { 200: ScreenResult, ...errorResponses(400, 409) },
        },
      },
      (req) => screenWithdrawal(platform, req.tenantContext, req.body),
    );

    app.get(
      '/aml/cases',
      {
        config,
        schema: {
          tags,
          summary: "A user's open and closed AML cases (codes only)",
          querystring: CasesQuery,
          response: { 200: UserCases, ...errorResponses(400) },
        },
      },
      (req) => casesForUser(req.tenantContext, req.query.user_id),
    );
  };
}
