import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Counter } from 'prom-client';
import type { RateLimitBucket, Tenant } from './db/platform-tables.js';
import { AppError } from './errors.js';
import type { Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The per-key budget a tenant route draws on; `default` unless the route names another. */
    rateLimitBucket?: RateLimitBucket;
  }
  interface FastifyInstance {
    /** compliance_rate_limited_requests_total, on the tenant API's scope: what drawMore counts its refusals in. */
    rateLimitRefusals?: Counter<'bucket'>;
  }
}

/** Requests per minute per API key, from the spec's Limits table; tenants may have back-office overrides. */
export const DEFAULT_RATE_LIMITS: Record<RateLimitBucket, number> = {
  default: 100,
  exclusions: 100,
  aml_event: 1000,
};

export function rateLimitFor(tenant: Tenant, bucket: RateLimitBucket): number {
  return tenant.rate_limits[`${bucket}_per_minute`] ?? DEFAULT_RATE_LIMITS[bucket];
}

const bucketOf = (request: FastifyRequest): RateLimitBucket =>
  request.routeOptions.config.rateLimitBucket ?? 'default';

/**
 * Per-key, per-bucket limits for the tenant API scope. Counters live in process, or in Redis when one is
 * configured so that every process of a deployment draws on one budget.
 */
export async function registerTenantRateLimits(
  scope: FastifyInstance,
  redis: Redis | undefined,
  metrics: Metrics,
): Promise<void> {
  const refusals = metrics.counter(
    'compliance_rate_limited_requests_total',
    'Tenant API requests refused with 429 by the per-key rate limit, by bucket',
    ['bucket'],
    Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => ({ bucket })),
  );
  scope.decorate('rateLimitRefusals', refusals);
  await scope.register(rateLimit, {
    global: true,
    // After authentication (onRequest), so the key and its tenant's overrides are known; before validation, so
    // malformed requests draw on the budget too.
    hook: 'preValidation',
    timeWindow: 60_000,
    redis,
    nameSpace: 'compliance:ratelimit:',
    // A Redis outage must not take the compliance checks down with it: requests pass uncounted meanwhile.
    skipOnError: true,
    enableDraftSpec: true,
    keyGenerator: (request) => `${bucketOf(request)}:${request.tenantContext.keyId}`,
    max: (request) => rateLimitFor(request.tenantContext.tenant, bucketOf(request)),
    errorResponseBuilder: (request, context) => {
      refusals.inc({ bucket: bucketOf(request) });
      return new AppError(
        'rate_limited',
        `More than ${context.max} requests per minute on this API key; retry after ${context.after}`,
      );
    },
  });
}

/**
 * For a request that counts as several (a batch): draws `extra` more from the bucket its route already drew one
 * from, answering 429 when the budget runs out part-way.
 */
export async function drawMore(request: FastifyRequest, reply: FastifyReply, extra: number): Promise<void> {
  if (extra <= 0) return;
  const limiter = request.server.createRateLimit();
  for (let i = 0; i < extra; i++) {
    const outcome = await limiter(request);
    if (!outcome.isAllowed && outcome.isExceeded) {
      request.server.rateLimitRefusals?.inc({ bucket: bucketOf(request) });
      reply.header('retry-after', outcome.ttlInSeconds);
      throw new AppError(
        'rate_limited',
        `This batch counts as ${extra + 1} requests: more than ${outcome.max} requests per minute on this API key; retry after ${outcome.ttlInSeconds} seconds`,
      );
    }
  }
}

type RateLimitCheck = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * A budget a minute per client address (the connection's, or the one a TRUST_PROXY proxy forwards; IPv6 by /64),
 * counted by @fastify/rate-limit's store: in process, or in Redis when one is configured so that every process of a
 * deployment counts together. The returned function draws one from the request's address: within `max` a minute it
 * returns; past it, it throws 429 `rate_limited` with Retry-After and the `refusal` message.
 */
export function addressLimit(
  scope: FastifyInstance,
  options: {
    redis: Redis | undefined;
    max: number;
    nameSpace: string;
    refusal: (max: number, retryAfterSeconds: number) => string;
  },
): (request: FastifyRequest) => Promise<void> {
  let check: RateLimitCheck | undefined;
  // In a context of its own, so the scope's per-key limits neither see nor share this store.
  void scope.register(async (own) => {
    if (own.hasDecorator('createRateLimit')) {
      throw new Error('An address limit must be registered before any other rate limit of its scope');
    }
    await own.register(rateLimit, {
      global: false,
      max: options.max,
      timeWindow: 60_000,
      redis: options.redis,
      nameSpace: options.nameSpace,
      // As for the per-key limits: a Redis outage lets requests through uncounted rather than refusing everyone.
      skipOnError: true,
    });
    check = own.createRateLimit();
  });
  return async (request) => {
    const limit = await check!(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    const retryAfter = Math.max(1, limit.ttlInSeconds);
    throw new AppError('rate_limited', options.refusal(limit.max, retryAfter), undefined, retryAfter);
  };
}

/**
 * Failed authentications per client address (addressLimit). The returned function is called on each failure before
 * anything is written for it, so a flood of bad credentials past the limit writes nothing. Valid credentials never
 * reach it: an address over the limit still gets through with a good key.
 */
export function authFailureLimit(
  scope: FastifyInstance,
  options: { redis: Redis | undefined; max: number; nameSpace: string; what: string },
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const limit = addressLimit(scope, {
    ...options,
    refusal: (max, retryAfter) =>
      `More than ${max} failed ${options.what} a minute from this address; retry after ${retryAfter} seconds`,
  });
  return async (request, reply) => {
    try {
      await limit(request);
    } catch (error) {
      if (error instanceof AppError && error.retryAfterSeconds) {
        void reply.header('retry-after', error.retryAfterSeconds);
      }
      throw error;
    }
  };
}
