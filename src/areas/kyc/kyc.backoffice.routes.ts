import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { Type } from 'typebox';
import { requestStaffContext } from '../../platform/service-context.js';
import {
  KycCheckStatus,
  ReviewQueuePage,
  ReviewQueueQuery,
  StaffManualReviewRequest,
} from './kyc.schemas.js';
import { listReviews } from './service/list-reviews.js';
import { staffManualReview } from './service/manual-review.js';

const tags = ['kyc'];

/** The staff's KYC review queue across tenants, and their decisions (the same as a tenant admin's manual review). */
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

    app.post(
      '/kyc/reviews/:kyc_check_id/decision',
      {
        schema: {
          tags,
          summary: 'Approve or reject a check awaiting manual review, with a reason (audited)',
          params: Type.Object({ kyc_check_id: Type.String({ maxLength: 100 }) }),
          body: StaffManualReviewRequest,
          response: { 200: KycCheckStatus, ...errorResponses(400, 403, 404, 409) },
        },
      },
      (req) => staffManualReview(requestStaffContext(platform, req), req.params.kyc_check_id, req.body),
    );
  };
}
