import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { checkDeposit } from './limits.check.js';
import { commitDeposit } from './limits.commit.js';
import { toRecord } from './limits.events.js';
import { listLimits } from './limits.list.js';
import {
  CheckRequest,
  CheckResult,
  CommitRequest,
  CommittedDeposit,
  DepositLimitRecord,
  LimitList,
  LimitParams,
  ListLimitsQuery,
  SetLimitRequest,
} from './limits.schemas.js';
import { cancelLimit, setLimit } from './limits.service.js';

// The spec's limit codes: a bad amount is invalid_amount, a bad limit_type unsupported_type; any other invalid
// field is the platform's invalid_request. Limits draw on the default rate-limit bucket.
const config = {
  validationErrorCode: {
    amount_cents: 'invalid_amount',
    limit_type: 'unsupported_type',
    '*': 'invalid_request',
  },
};
const tags = ['limits'];

/** The deposit-limits area of the tenant API, mounted under /v1 after authentication and rate limits. */
export function limitRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/limits',
      {
        config,
        schema: {
          tags,
          summary: 'Set or change a deposit limit',
          description:
            'First-time sets and decreases are in force at once (201); an increase is pending for its cool-off (201). While an increase is pending the same request returns it (200) and another increase is 409 pending_change_exists; a decrease cancels it.',
          body: SetLimitRequest,
          response: {
            200: DepositLimitRecord,
            201: DepositLimitRecord,
            ...errorResponses(400, 401, 409, 422, 429),
          },
        },
      },
      async (req, reply) => {
        const { limit, created } = await setLimit(platform, req.tenantContext, req.body as SetLimitRequest);
        return reply.code(created ? 201 : 200).send(toRecord(limit));
      },
    );

    app.get(
      '/limits',
      {
        config,
        schema: {
          tags,
          summary: "A user's limits with spend, remaining, next reset and pending change",
          querystring: ListLimitsQuery,
          response: { 200: LimitList, ...errorResponses(400, 401, 429) },
        },
      },
      async (req) => ({
        user_id: req.query.user_id,
        limits: await listLimits(platform, req.tenantContext, req.query.user_id),
      }),
    );

    app.post(
      '/limits/check',
      {
        config,
        schema: {
          tags,
          summary: 'Pre-deposit gate',
          description:
            "Allowed only if the amount fits under every limit in force over its rolling window ending now; a rejected deposit is rejected in full and emits limit.breach_attempt. 422 currency_mismatch when the currency is not the one the user's limits and deposits are kept in.",
          body: CheckRequest,
          response: { 200: CheckResult, ...errorResponses(400, 401, 422, 429) },
        },
      },
      (req) => checkDeposit(platform, req.tenantContext, req.body),
    );

    app.post(
      '/limits/commit',
      {
        config,
        schema: {
          tags,
          summary: 'Record a deposit that went through',
          description:
            'Idempotent on (tenant, transaction_id): the same deposit again is 200 with the original; other details under the same transaction_id are 409 duplicate_transaction.',
          body: CommitRequest,
          response: {
            200: CommittedDeposit,
            201: CommittedDeposit,
            ...errorResponses(400, 401, 409, 422, 429),
          },
        },
      },
      async (req, reply) => {
        const { deposit, created } = await commitDeposit(
          platform,
          req.tenantContext,
          req.body as CommitRequest,
        );
        return reply.code(created ? 201 : 200).send(deposit);
      },
    );

    app.delete(
      '/limits/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Cancel a pending increase',
          description:
            '200 with the cancelled record. 404 limit_not_found for an id the tenant does not have; 409 limit_not_pending for a limit that is not a pending increase.',
          params: LimitParams,
          response: { 200: DepositLimitRecord, ...errorResponses(401, 404, 409, 429) },
        },
      },
      async (req) => toRecord(await cancelLimit(platform, req.tenantContext, req.params.id)),
    );
  };
}
