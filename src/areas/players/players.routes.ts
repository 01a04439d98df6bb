import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import {
  AccountClosedRequest,
  AccountClosure,
  ErasureRequest,
  ErasureRequestBody,
  ErasureRequestList,
  ErasureRequestParams,
  PlayerParams,
  PlayerStatus,
  PlayerStatusQuery,
} from './players.schemas.js';
import { erasureRequestOf, erasureRequestsOf, requestErasure, toErasureRequest } from './service/erasure.js';
import { recordClosure } from './service/record-closure.js';
import { playerStatus } from './service/player-status.js';

// A bad email or phone is invalid_payload, as the live exclusion check answers it; any other invalid field is the
// platform's invalid_request. The status draws on the default rate-limit bucket.
const config = {
  validationErrorCode: { email: 'invalid_payload', phone: 'invalid_payload', '*': 'invalid_request' },
} as const;
const tags = ['players'];

/** The player status call of the tenant API, mounted under /v1 after authentication and rate limits. */
export function playerRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/players/:user_id/status',
      {
        config,
        schema: {
          tags,
          summary: 'What a player may do now, and why not',
          description:
            "can_play, can_deposit, can_withdraw and marketing_allowed, the restrictions behind them (self_excluded, timed_out, play_time_exhausted, account_under_review, kyc_required, safer_gambling_review, each with its end or null; marketing_allowed is also false at the safer-gambling level the tenant's policy names, medium by default), every limit in force of every kind with its use, and the reality-check interval. With email or phone, the national register and the regulator's list count too, as in the live exclusion check. A player the service knows nothing of may do everything.",
          params: PlayerParams,
          querystring: PlayerStatusQuery,
          response: { 200: PlayerStatus, ...errorResponses(400, 401, 429) },
        },
      },
      (req) => playerStatus(platform, req.tenantContext, req.params.user_id, req.query),
    );

    app.post(
      '/players/:user_id/closed',
      {
        schema: {
          tags,
          summary: "Record that a player's account closed: the end of the business relationship",
          description:
            'The clocks of the data kept from the end of the relationship (AML records five years, player-protection records six) run from closed_at (docs/data.md). Once per player: the same closed_at again answers the stored record (200); another is 409 account_already_closed.',
          params: PlayerParams,
          body: AccountClosedRequest,
          response: { 200: AccountClosure, 201: AccountClosure, ...errorResponses(400, 401, 409, 429) },
        },
      },
      async (req, reply) => {
        const { closure, created } = await recordClosure(req.tenantContext, req.params.user_id, req.body);
        return reply.code(created ? 201 : 200).send(closure);
      },
    );

    app.post(
      '/players/:user_id/erasure-requests',
      {
        schema: {
          tags,
          summary: "Erase a player's data, within the law",
          description:
            'Deletes at once what the law lets go, pseudonymises what must be kept (AML, sanctions and player-protection records under a keyed pseudonym, with names, contacts and free text hashed or erased) and says, for every kind of data the service can hold, what was done, why anything is kept and until when (docs/data.md). Records that still protect the player (an exclusion in force; a time-out or limit while the account is open) stay as they are until they stop: the request is in_progress until then, and an exclusion in force keeps matching. Idempotent on erasure_request_id. A player of whom nothing is held is 404 player_not_found.',
          params: PlayerParams,
          body: ErasureRequestBody,
          response: { 200: ErasureRequest, 201: ErasureRequest, ...errorResponses(400, 401, 404, 409, 429) },
        },
      },
      async (req, reply) => {
        const { tenantContext: ctx, params } = req;
        const { request, created } = await requestErasure(
          platform,
          ctx,
          ctx.tenantId,
          params.user_id,
          req.body,
        );
        return reply.code(created ? 201 : 200).send(toErasureRequest(request, params.user_id));
      },
    );

    app.get(
      '/players/:user_id/erasure-requests',
      {
        schema: {
          tags,
          summary: "A player's erasure requests, oldest first",
          params: PlayerParams,
          response: { 200: ErasureRequestList, ...errorResponses(400, 401, 429) },
        },
      },
      async (req) => {
        const rows = await erasureRequestsOf(platform, req.tenantContext.tenantId, req.params.user_id);
        return { erasure_requests: rows.map((row) => toErasureRequest(row, req.params.user_id)) };
      },
    );

    app.get(
      '/players/:user_id/erasure-requests/:erasure_request_id',
      {
        schema: {
          tags,
          summary: 'One erasure request and its outcome',
          params: ErasureRequestParams,
          response: { 200: ErasureRequest, ...errorResponses(400, 401, 404, 429) },
        },
      },
      async (req) => {
        const { user_id: userId, erasure_request_id: id } = req.params;
        return toErasureRequest(
          await erasureRequestOf(platform, req.tenantContext.tenantId, userId, id),
          userId,
        );
      },
    );
  };
}
