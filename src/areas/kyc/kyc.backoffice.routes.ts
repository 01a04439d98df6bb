import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { ReviewQueuePage, ReviewQueueQuery } from './kyc.schemas.js';
import { listReviews } from './kyc.service.js';

const tags = ['kyc'];

/** The staff's KYC review queue across tenants (decisions are the tenant admin's POST /v1/kyc/manual-review). */
export function kycBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/kyc/reviews',
      {
        schema: {
          tags,
          summary: 'Checks that reached pending_review, oldest-due first, keyset-paginated (next_cursor)',
          querystring: ReviewQueueQuery,
          response: { 200: ReviewQueuePage, ...errorResponses(400) },
        },
      },
      (req) => listReviews(platform, req.query),
    );
  };
}
