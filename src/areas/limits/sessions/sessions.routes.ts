import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../../platform/context.js';
import { errorResponses } from '../../../platform/schemas.js';
import { endPlaySession } from '../service/end-play-session.js';
import { getPlaySession } from '../service/get-play-session.js';
import { setRealityCheck } from '../service/reality-check.js';
import { startPlaySession } from '../service/start-play-session.js';
import {
  EndPlaySessionRequest,
  PlayerParams,
  PlayerRealityCheck,
  PlaySession,
  PlaySessionView,
  RealityCheckRequest,
  SessionParams,
  StartPlaySessionRequest,
} from './sessions.schemas.js';

// Any invalid field is the platform's invalid_request. Sessions draw on the default rate-limit bucket, as limits.
const config = { validationErrorCode: { '*': 'invalid_request' } } as const;
const tags = ['play sessions'];

/** Play sessions and reality checks in the tenant API, mounted under /v1 with the limits area's routes. */
export function playSessionRoutes(_platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/play-sessions',
      {
        config,
        schema: {
          tags,
          summary: 'Start a play session',
          description:
            '201 with allowed, or allowed:false and a reason (self_excluded, timed_out, play_time_exhausted), judged at receipt; a refused session is stored and counts no time. ends_at: when the first play_time limit runs out (play_session.limit_reached is sent then). Idempotent on (tenant, session_id): the same request again is 200 with the stored session; the session_id with another user_id or started_at is 409 duplicate_session.',
          body: StartPlaySessionRequest,
          response: { 200: PlaySession, 201: PlaySession, ...errorResponses(400, 401, 409, 429) },
        },
      },
      async (req, reply) => {
        const { session, created } = await startPlaySession(req.tenantContext, req.body);
        return reply.code(created ? 201 : 200).send(session);
      },
    );

    app.post(
      '/play-sessions/:session_id/end',
      {
        config,
        schema: {
          tags,
          summary: 'End a play session',
          description:
            'Played time counts up to ended_at. 200 with the session; the same end again is 200, another ended_at 409 session_already_ended; ended_at before started_at is 422 ended_before_start. An end before ends_at means no play_session.limit_reached.',
          params: SessionParams,
          body: EndPlaySessionRequest,
          response: { 200: PlaySession, ...errorResponses(400, 401, 404, 409, 422, 429) },
        },
      },
      (req) => endPlaySession(req.tenantContext, req.params.session_id, req.body),
    );

    app.get(
      '/play-sessions/:session_id',
      {
        config,
        schema: {
          tags,
          summary: "A reality check's data: elapsed time and the session's stakes, payouts and net",
          params: SessionParams,
          response: { 200: PlaySessionView, ...errorResponses(400, 401, 404, 429) },
        },
      },
      (req) => getPlaySession(req.tenantContext, req.params.session_id),
    );

    app.put(
      '/players/:user_id/reality-check',
      {
        config,
        schema: {
          tags,
          summary: "Set a player's reality-check interval",
          description:
            "interval_seconds 300 to 7200, or null for the tenant's default. Sessions started from now on take it.",
          params: PlayerParams,
          body: RealityCheckRequest,
          response: { 200: PlayerRealityCheck, ...errorResponses(400, 401, 429) },
        },
      },
      (req) => setRealityCheck(req.tenantContext, req.params.user_id, req.body.interval_seconds),
    );
  };
}
