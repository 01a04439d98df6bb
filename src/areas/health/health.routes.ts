import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { VERSION } from '../../version.js';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
});

const DATABASE_TIMEOUT_MS = 2000;

/** GET /v1/health: public; 503 when the database does not answer in time. */
export function healthRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/health',
      { schema: { tags: ['health'], security: [], response: { 200: Health, 503: Health } } },
      async (_request, reply) => {
        const databaseOk = await Promise.race([
          sql`select 1`.execute(platform.db).then(
            () => true,
            () => false,
          ),
          new Promise<boolean>((resolve) => setTimeout(resolve, DATABASE_TIMEOUT_MS, false).unref()),
        ]);
        return reply.code(databaseOk ? 200 : 503).send({
          status: databaseOk ? 'ok' : 'degraded',
          version: VERSION,
          database: databaseOk ? 'ok' : 'unavailable',
        });
      },
    );
  };
}
