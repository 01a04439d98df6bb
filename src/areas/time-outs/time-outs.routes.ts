import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { ListTimeOutsQuery, TakeTimeOutRequest, TimeOut, TimeOutList } from './time-outs.schemas.js';
import { listTimeOuts } from './service/list-time-outs.js';
import { takeTimeOut } from './service/take-time-out.js';

// A missing or unknown duration is unsupported_duration (as limits answer unsupported_type for a limit_type); any
// other invalid field is the platform's invalid_request. Time-outs draw on the default rate-limit bucket.
const config = {
  validationErrorCode: { duration: 'unsupported_duration', '*': 'invalid_request' },
} as const;
const tags = ['time-outs'];

/** The time-outs area of the tenant API, mounted under /v1 after authentication and rate limits. */
export function timeOutRoutes(_platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/time-outs',
      {
        config,
        schema: {
          tags,
          summary: 'Take a time-out ("take a break")',
          description:
            'The break runs from receipt for the duration. It cannot be shortened or cancelled: while one is active, the same duration answers it with 200, and so does any request that would end no later. A request that would end later extends the break: a new time-out (201, timeout.started) supersedes the one in force. timeout.ended is sent when the last one ends.',
          body: TakeTimeOutRequest,
          response: { 200: TimeOut, 201: TimeOut, ...errorResponses(400, 401, 429) },
        },
      },
      async (req, reply) => {
        const { timeOut, created } = await takeTimeOut(req.tenantContext, req.body);
        return reply.code(created ? 201 : 200).send(timeOut);
      },
    );

    app.get(
      '/time-outs',
      {
        config,
        schema: {
          tags,
          summary: "A player's time-outs, newest first, with their status",
          querystring: ListTimeOutsQuery,
          response: { 200: TimeOutList, ...errorResponses(400, 401, 429) },
        },
      },
      (req) => listTimeOuts(req.tenantContext, req.query.user_id),
    );
  };
}
