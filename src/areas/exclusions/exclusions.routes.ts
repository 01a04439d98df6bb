import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { drawMore } from '../../platform/rate-limit.js';
import { errorResponses } from '../../platform/schemas.js';
import {
  CheckBatchRequest,
  CheckBatchResult,
  CheckQuery,
  CheckResult,
  CreateExclusionRequest,
  Exclusion,
  SnapshotPage,
  SnapshotQuery,
} from './exclusions.schemas.js';
import { checkBatch, checkExclusion } from './service/check-exclusion.js';
import { createExclusion } from './service/create-exclusion.js';
import { snapshotPage } from './service/snapshot.js';

/** Every exclusion route answers validation failures with invalid_payload and draws on the exclusions budget. */
const config = { validationErrorCode: 'invalid_payload', rateLimitBucket: 'exclusions' } as const;
const tags = ['exclusions'];
/** A check-batch draws on the exclusions budget as one request per this many contacts. */
const CONTACTS_PER_REQUEST = 100;

/** The self-exclusion area of the tenant API, mounted under /v1 after authentication and rate limits. */
export function exclusionRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/exclusions',
      {
        config,
        schema: {
          tags,
          summary: 'Register a self-exclusion',
          description:
            'Idempotent on (tenant, user, duration) while that exclusion is active: the same request returns the original with 200, a different one 409 already_excluded. A timed request while the user is permanently excluded is 409 already_excluded.',
          body: CreateExclusionRequest,
          response: { 200: Exclusion, 201: Exclusion, ...errorResponses(400, 401, 409, 429) },
        },
      },
      async (request, reply) => {
        const { exclusion, created } = await createExclusion(platform, request.tenantContext, request.body);
        return reply.code(created ? 201 : 200).send(exclusion);
      },
    );

    app.get(
      '/exclusions/check',
      {
        config,
        schema: {
          tags,
          summary: 'Check an email or phone against the national register',
          description:
            'Either email or phone is required. Returns the most restrictive active exclusion (permanent first, otherwise the latest expiry), or {"is_excluded": false}.',
          querystring: CheckQuery,
          response: { 200: CheckResult, ...errorResponses(400, 401, 403, 429) },
        },
      },
      (request) => checkExclusion(platform, request.tenantContext, request.query),
    );

    app.post(
      '/exclusions/check-batch',
      {
        config,
        schema: {
          tags,
          summary: 'Check up to 1,000 contacts against the national register at once',
          description: `For the daily reconciliation: each contact's result is what the live check answers for it, with the tenant's reference. The contacts count as shown, as in the live check. Draws on the exclusions rate-limit bucket as one request per ${CONTACTS_PER_REQUEST} contacts (rounded up).`,
          body: CheckBatchRequest,
          response: { 200: CheckBatchResult, ...errorResponses(400, 401, 403, 429) },
        },
        preHandler: (request, reply) =>
          drawMore(request, reply, Math.ceil(request.body.contacts.length / CONTACTS_PER_REQUEST) - 1),
      },
      (request) => checkBatch(platform, request.tenantContext, request.body),
    );

    app.get(
      '/exclusions/snapshot',
      {
        config,
        schema: {
          tags,
          summary: 'Page through every active exclusion the tenant must enforce',
          description:
            'Keyset-paginated in creation order; pass next_cursor as cursor until has_more is false. Rows added during a walk appear on later pages.',
          querystring: SnapshotQuery,
          response: { 200: SnapshotPage, ...errorResponses(400, 401, 429) },
        },
      },
      (request) => snapshotPage(platform, request.tenantContext, request.query),
    );

    // The retired single-step embed: the two-step request/confirm flow (email code) replaced it.
    app.post(
      '/exclusions/embed',
      {
        config,
        schema: {
          tags,
          summary: 'Retired: the single-step self-exclusion embed',
          response: errorResponses(410),
        },
      },
      async () => {
        throw new AppError(
          'endpoint_retired',
          'The single-step self-exclusion embed is retired; use the two-step embed flow (request, then confirm with the emailed code)',
        );
      },
    );
  };
}
