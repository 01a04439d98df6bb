import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { Health, Readiness } from './health.schemas.js';
import { checkHealth } from './service/check-health.js';
import { checkReadiness } from './service/check-readiness.js';

/**
 * GET /v1/health: public; 503 when the database does not answer in time. GET /v1/health/ready: public; 503 naming
 * what keeps this process from serving traffic (docs/operations.md#health-and-readiness).
 */
export function healthRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/health',
      { schema: { tags: ['health'], security: [], response: { 200: Health, 503: Health } } },
      async (_request, reply) => {
        const health = await checkHealth(platform);
        return reply.code(health.database === 'ok' ? 200 : 503).send(health);
      },
    );
    app.get(
      '/health/ready',
      { schema: { tags: ['health'], security: [], response: { 200: Readiness, 503: Readiness } } },
      async (_request, reply) => {
        const readiness = await checkReadiness(platform);
        return reply.code(readiness.status === 'ready' ? 200 : 503).send(readiness);
      },
    );
  };
}
