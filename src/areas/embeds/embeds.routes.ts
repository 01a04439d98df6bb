import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordSecurityEvent } from '../../platform/audit.js';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { countAuthFailure } from '../../platform/auth-failures.js';
import { authFailureLimit } from '../../platform/rate-limit.js';
import { errorResponses } from '../../platform/schemas.js';
import { Exclusion } from '../exclusions/index.js';
import { LimitRecord } from '../limits/index.js';
import {
  CodeRequested,
  ConfirmCodeRequest,
  CreateEmbedSessionRequest,
  EmbedLimitParams,
  EmbedLimits,
  EmbedSession,
  EmbedSetLimitRequest,
  RequestCodeRequest,
  TokenParams,
} from './embeds.schemas.js';
import { cancelEmbedLimit, embedLimits, setEmbedLimit } from './service/limits.js';
import { confirmCode, requestCode } from './service/codes.js';
import { createEmbedSession } from './service/sessions.js';

const tags = ['embeds'];
const config = { validationErrorCode: 'invalid_request' } as const;

/** POST /v1/embeds/sessions, in the tenant API's scope: the operator's server creates a session with its key. */
export function embedSessionRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/embeds/sessions',
      {
        config,
        schema: {
          tags,
          summary: 'Create a hosted embed session for one player',
          description:
            "Answers the page's URL (with an unguessable single-session token) and when it expires (15 minutes). The player, email and phone come from the operator's server, never from the page. email is required for self_exclusion; deposit_limits takes currency, or the one the player's limits and deposits are kept in (400 when there is none yet). See docs/embeds.md.",
          body: CreateEmbedSessionRequest,
          response: { 201: EmbedSession, ...errorResponses(400, 401, 429) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(
          await createEmbedSession(
            platform,
            request.tenantContext,
            request.body,
            // PUBLIC_URL, never the request's Host: an operator's request must not choose where players are sent.
            platform.config.publicUrl,
          ),
        ),
    );
  };
}

/**
 * A token that names no usable session is a failed authentication: counted per client address (429 past
 * AUTH_FAILURES_PER_MINUTE, before anything is written) and written to the security log. Returns what a handler
 * calls on one.
 */
export function tokenFailures(scope: FastifyInstance, platform: Platform) {
  const limitFailures = authFailureLimit(scope, {
    redis: platform.redis,
    max: platform.config.authFailuresPerMinute,
    nameSpace: 'compliance:auth-failures:embed:',
    what: 'embed tokens',
  });
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    countAuthFailure(platform.metrics, 'embed', 'invalid_token');
    await limitFailures(request, reply);
    await recordSecurityEvent(platform.db, {
      reason: 'invalid_embed_token',
      keyPrefix: null,
      requestId: request.id,
      remoteIp: request.ip,
      at: platform.clock.now(),
    });
  };
}

/**
 * The JSON endpoints a session's token opens (docs/embeds.md): the page's own, and an operator's UI may call them
 * too. No bearer key: the token in the path is the credential.
 */
export function embedTokenRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  const schema = (summary: string, description: string) => ({ tags, summary, description, security: [] });
  return async (app) => {
    const tokenFailure = tokenFailures(app, platform);
    app.setErrorHandler(async (error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError && error.code === 'invalid_embed_token')
        await tokenFailure(request, reply);
      throw error;
    });

    app.post(
      '/embeds/:token/request',
      {
        config,
        schema: {
          ...schema(
            'Send the player a 6-digit code for the chosen duration',
            'self_exclusion sessions. Replaces a live code (no sooner than 60 s after it: 429 resend_too_early); at most 5 codes an hour to one email from this tenant (429 too_many_codes). Both carry Retry-After.',
          ),
          params: TokenParams,
          body: RequestCodeRequest,
          response: { 202: CodeRequested, ...errorResponses(400, 401, 409, 429) },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(await requestCode(platform, request.params.token, request.id, request.body.duration)),
    );

    app.post(
      '/embeds/:token/confirm',
      {
        config,
        schema: {
          ...schema(
            "Confirm the code: creates the exclusion, as POST /v1/exclusions does, for the code's duration",
            '201 with the Exclusion (200 if the same exclusion already existed). A wrong code is 422 invalid_code with attempts_left; the fifth voids the code (then 422 code_locked until a new one is asked for). 422 code_expired, 409 code_not_requested, 409 embed_session_completed after success.',
          ),
          params: TokenParams,
          body: ConfirmCodeRequest,
          response: { 200: Exclusion, 201: Exclusion, ...errorResponses(400, 401, 409, 422) },
        },
      },
      async (request, reply) => {
        const { exclusion, created } = await confirmCode(
          platform,
          request.params.token,
          request.id,
          request.body.code,
        );
        return reply.code(created ? 201 : 200).send(exclusion);
      },
    );

    app.get(
      '/embeds/:token/limits',
      {
        config,
        schema: {
          ...schema(
            "The player's deposit limits with spend, remaining, reset times and any pending increase",
            'deposit_limits sessions; the same view as GET /v1/limits.',
          ),
          params: TokenParams,
          response: { 200: EmbedLimits, ...errorResponses(401, 409) },
        },
      },
      (request) => embedLimits(platform, request.params.token, request.id),
    );

    app.post(
      '/embeds/:token/limits',
      {
        config: {
          ...config,
          validationErrorCode: {
            amount_cents: 'invalid_amount',
            limit_type: 'unsupported_type',
            '*': 'invalid_request',
          },
        },
        schema: {
          ...schema(
            "Set, lower or raise one of the player's limits",
            "As POST /v1/limits, in the session's currency: a first limit and a decrease apply at once; an increase waits out its cooling-off (pending). Same events.",
          ),
          params: TokenParams,
          body: EmbedSetLimitRequest,
          response: {
            200: LimitRecord,
            201: LimitRecord,
            ...errorResponses(400, 401, 409, 422),
          },
        },
      },
      async (request, reply) => {
        const { limit, created } = await setEmbedLimit(
          platform,
          request.params.token,
          request.id,
          request.body,
        );
        return reply.code(created ? 201 : 200).send(limit);
      },
    );

    app.delete(
      '/embeds/:token/limits/:limit_id',
      {
        config,
        schema: {
          ...schema(
            'Cancel a pending increase of the player',
            "As DELETE /v1/limits/{id}, for the session's player only.",
          ),
          params: EmbedLimitParams,
          response: { 200: LimitRecord, ...errorResponses(401, 404, 409) },
        },
      },
      (request) => cancelEmbedLimit(platform, request.params.token, request.id, request.params.limit_id),
    );
  };
}
