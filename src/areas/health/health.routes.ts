import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../platform/context.js';
import { Health } from './health.schemas.js';
import { checkHealth } from './service/check-health.js';

/** GET /v1/health: public; 503 when the database does not answer in time. */
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
  };
}
