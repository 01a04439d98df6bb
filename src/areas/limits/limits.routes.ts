import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { toLimitRecord } from './limits.events.js';
import {
  CheckRequest,
  CheckResult,
  CommitRequest,
  CommittedDeposit,
  LimitList,
  LimitRecord,
  LimitParams,
  ListLimitsQuery,
  ReleasedDeposit,
  ReleaseRequest,
  SetLimitRequest,
  WagerCheckRequest,
  WagerCheckResult,
} from './limits.schemas.js';
import { cancelLimit } from './service/cancel-limit.js';
import { checkDeposit } from './service/check-deposit.js';
import { checkWager } from './service/check-wager.js';
import { commitDeposit } from './service/commit-deposit.js';
import { listLimitsOfKind } from './service/list-limits.js';
import { releaseDeposit, toReleaseRecord } from './service/release-deposit.js';
import { setLimit } from './service/set-limit.js';
import { playSessionRoutes } from './sessions/sessions.routes.js';

// The spec's limit codes: a bad amount is invalid_amount, a bad limit_type unsupported_type; any other invalid
// field is the platform's invalid_request. Limits draw on the default rate-limit bucket.
const config = {
  validationErrorCode: {
    amount_cents: 'invalid_amount',
    amount_seconds: 'invalid_amount',
    limit_type: 'unsupported_type',
    limit_kind: 'unsupported_type',
    '*': 'invalid_request',
  },
} as const;
const tags = ['limits'];

/**
 * The deposit-limits area of the tenant API, mounted under /v1 after authentication and rate limits. The check
 * groups its statements on the platform's database; every other verb needs only the request's context.
 */
export function limitRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/limits',
      {
        config,
        schema: {
          tags,
          summary: 'Set or change a limit of any kind',
          description:
            "limit_kind deposit (the default, the spec), loss, wager (amount_cents and currency) or play_time (amount_seconds; limit_session too). First-time sets and decreases are in force at once (201); an increase is pending for its cool-off (201). While an increase is pending the same request returns it (200) and another increase is 409 pending_change_exists; a decrease cancels it. A deposit limit's record is exactly the spec's; the other kinds carry limit_kind.",
          body: SetLimitRequest,
          response: {
            200: LimitRecord,
            201: LimitRecord,
            ...errorResponses(400, 401, 409, 422, 429),
          },
        },
      },
      async (req, reply) => {
        const { limit, created } = await setLimit(req.tenantContext, req.body);
        return reply.code(created ? 201 : 200).send(toLimitRecord(limit));
      },
    );

    app.get(
      '/limits',
      {
        config,
        schema: {
          tags,
          summary: "A user's limits with spend, remaining, next reset and pending change",
          description:
            'The deposit limits, as the spec lists them; ?limit_kind= one other kind, or all for every kind.',
          querystring: ListLimitsQuery,
          response: { 200: LimitList, ...errorResponses(400, 401, 429) },
        },
      },
      async (req) => ({
        user_id: req.query.user_id,
        limits: await listLimitsOfKind(
          req.tenantContext,
          req.query.user_id,
          req.query.limit_kind ?? 'deposit',
        ),
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
            "Allowed only if the amount, with the amounts held by earlier allowed checks, fits under every limit in force over its rolling window ending now; an allowed amount is held for 15 minutes, until its commit or a release. A rejected deposit is rejected in full and emits limit.breach_attempt. 422 currency_mismatch when the currency is not the one the user's limits and deposits are kept in.",
          body: CheckRequest,
          response: { 200: CheckResult, ...errorResponses(400, 401, 422, 429) },
        },
      },
      (req) => checkDeposit(platform, req.tenantContext, req.body),
    );

    app.post(
      '/limits/wager-check',
      {
        config,
        schema: {
          tags,
          summary: 'Pre-bet gate',
          description:
            "Allowed only if, in every window, stakes so far plus the stake fit the wager limit and net loss so far (stakes less payouts, never below zero) plus the stake fit the loss limit. Stakes and payouts are the wager and settlement events acknowledged by POST /v1/aml/event. An allowed stake is held until its wager event of that amount is acknowledged, or 2 minutes. A rejected stake is rejected in full and emits limit.breach_attempt with limit_kind. 422 currency_mismatch when the currency is not the one the user's limits are kept in.",
          body: WagerCheckRequest,
          response: { 200: WagerCheckResult, ...errorResponses(400, 401, 422, 429) },
        },
      },
      (req) => checkWager(platform, req.tenantContext, req.body),
    );

    app.post(
      '/limits/commit',
      {
        config,
        schema: {
          tags,
          summary: 'Record a deposit that went through',
          description:
            "Consumes the user's oldest live hold of the same amount. Idempotent on (tenant, transaction_id): the same deposit again is 200 with the original; other details under the same transaction_id are 409 duplicate_transaction.",
          body: CommitRequest,
          response: {
            200: CommittedDeposit,
            201: CommittedDeposit,
            ...errorResponses(400, 401, 409, 422, 429),
          },
        },
      },
      async (req, reply) => {
        const { deposit, created } = await commitDeposit(req.tenantContext, req.body);
        return reply.code(created ? 201 : 200).send(deposit);
      },
    );

    app.post(
      '/limits/release',
      {
        config,
        schema: {
          tags,
          summary: 'Release the hold of a deposit that failed or was abandoned',
          description:
            "Frees the user's oldest live hold of this amount placed by an allowed check, so the player can deposit again at once. Idempotent on (tenant, transaction_id): the same release again is 200 with the original; other details under the same transaction_id, or a transaction_id already committed, are 409 duplicate_transaction.",
          body: ReleaseRequest,
          response: {
            200: ReleasedDeposit,
            201: ReleasedDeposit,
            ...errorResponses(400, 401, 409, 422, 429),
          },
        },
      },
      async (req, reply) => {
        const { release, created } = await releaseDeposit(req.tenantContext, req.body);
        return reply.code(created ? 201 : 200).send(toReleaseRecord(release));
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
          response: { 200: LimitRecord, ...errorResponses(401, 404, 409, 429) },
        },
      },
      async (req) => toLimitRecord(await cancelLimit(req.tenantContext, req.params.id)),
    );

    await app.register(playSessionRoutes(platform));
  };
}
