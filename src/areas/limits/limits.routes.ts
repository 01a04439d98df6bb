import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { checkDeposit, commitDeposit } from './limits.check.js';
import {
  CheckRequest,
  CheckResult,
  CommitRequest,
  CommittedDeposit,
  DepositLimit,
  LimitParams,
  LimitView,
  ListLimitsQuery,
  SetLimitRequest,
} from './limits.schemas.js';
import { cancelLimit, listLimits, setLimit } from './limits.service.js';

// The spec's limit codes: a bad amount is invalid_amount, a bad limit_type unsupported_type.
const config = {
  validationErrorCode: {
    amount_cents: 'invalid_amount',
    limit_type: 'unsupported_type',
    '*': 'invalid_request',
  },
};
const tags = ['limits'];

export function limitRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/limits',
      {
        config,
        schema: {
          tags,
          summary: 'Set or change a deposit limit',
          body: SetLimitRequest,
          response: { 200: DepositLimit, 201: DepositLimit, ...errorResponses(400, 409, 422) },
        },
      },
      async (req, reply) => {
        const { limit, created } = await setLimit(platform, req.tenantContext, req.body as SetLimitRequest);
        return reply.code(created ? 201 : 200).send(limit);
      },
    );

    app.get(
      '/limits',
      {
        config,
        schema: {
          tags,
          summary: "A user's limits with spend and reset times",
          querystring: ListLimitsQuery,
          response: { 200: Type.Object({ user_id: Type.String(), limits: Type.Array(LimitView) }) },
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
          body: CheckRequest,
          response: { 200: CheckResult, ...errorResponses(400, 422) },
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
          body: CommitRequest,
          response: { 200: CommittedDeposit, 201: CommittedDeposit, ...errorResponses(400, 409, 422) },
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
          params: LimitParams,
          response: { 200: DepositLimit, ...errorResponses(404, 409) },
        },
      },
      (req) => cancelLimit(platform, req.tenantContext, req.params.id),
    );
  };
}
