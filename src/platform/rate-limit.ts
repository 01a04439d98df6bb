import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { RateLimitBucket, Tenant } from './db/platform-tables.js';
import { AppError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The per-key budget a tenant route draws on; `default` unless the route names another. */
    rateLimitBucket?: RateLimitBucket;
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
): Promise<void> {
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
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'rate_limited',
        429,
        `More than ${context.max} requests per minute on this API key; retry after ${context.after}`,
      ),
  });
}
