import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adminOnly } from '../../platform/auth.js';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import {
  KycCheckStatus,
  KycStartResult,
  KycTierRecord,
  ManualReviewRequest,
  StartKycRequest,
  StatusQuery,
  TierQuery,
  WithdrawalCompleted,
  WithdrawalCompletedRequest,
} from './kyc.schemas.js';
import { checkStatus } from './service/check-status.js';
import { manualReview } from './service/manual-review.js';
import { startKyc } from './service/start-kyc.js';
import { tierRecord } from './service/tier-record.js';
import { withdrawalCompleted } from './service/withdrawal-completed.js';

// The spec's KYC 400 is invalid_amount for a bad amount; any other malformed field is invalid_request.
const config = {
  validationErrorCode: {
    withdrawal_amount_cents: 'invalid_amount',
    amount_cents: 'invalid_amount',
    '*': 'invalid_request',
  },
} as const;
const tags = ['kyc'];

export function kycRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/kyc/start',
      {
        config,
        schema: {
          tags,
          summary: 'Begin verification for a withdrawal above the verified tier (or take the fast path)',
          body: StartKycRequest,
          response: { 200: KycStartResult, 201: KycStartResult, ...errorResponses(400, 403, 409, 422, 503) },
        },
      },
      async (req, reply) => {
        const { created, body } = await startKyc(platform, req.tenantContext, req.body);
        return reply.code(created ? 201 : 200).send(body);
      },
    );

    app.get(
      '/kyc/status',
      {
        config,
        schema: {
          tags,
          summary: 'Poll the status of a KYC check (fallback for webhooks)',
          querystring: StatusQuery,
          response: { 200: KycCheckStatus, ...errorResponses(400, 404) },
        },
      },
      (req) => checkStatus(req.tenantContext, req.query.kyc_check_id),
    );

    app.get(
      '/kyc/tier',
      {
        config,
        schema: {
          tags,
          summary: "A user's KYC tier record (amounts in USD cents)",
          querystring: TierQuery,
          response: { 200: KycTierRecord, ...errorResponses(400) },
        },
      },
      (req) => tierRecord(req.tenantContext, req.query.user_id),
    );

    app.post(
      '/kyc/manual-review',
      {
        ...adminOnly(config),
        schema: {
          tags,
          summary: 'Approve or reject a check that is not final (admin keys only)',
          body: ManualReviewRequest,
          response: { 200: KycCheckStatus, ...errorResponses(400, 403, 404, 409) },
        },
      },
      (req) => manualReview(req.tenantContext, req.body),
    );

    app.post(
      '/kyc/withdrawal-completed',
      {
        config,
        schema: {
          tags,
          summary: 'Report a withdrawal that cleared end to end; advances the lifetime total',
          body: WithdrawalCompletedRequest,
          response: { 200: WithdrawalCompleted, 201: WithdrawalCompleted, ...errorResponses(400, 409) },
        },
      },
      async (req, reply) => {
        const { created, withdrawal } = await withdrawalCompleted(req.tenantContext, req.body);
        return reply.code(created ? 201 : 200).send(withdrawal);
      },
    );
  };
}
