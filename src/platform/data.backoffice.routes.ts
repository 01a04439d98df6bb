import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from './context.js';
import { exportPlayerData } from './data-export.js';
import { PlayerDataExport } from './data-export.schemas.js';
import { errorResponses } from './schemas.js';
import { requestStaffContext } from './service-context.js';

const tags = ['data'];

/** A player's data on request (docs/data.md): the back office, the console and the CLI call this. */
export function dataBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/tenants/:tenant_id/players/:user_id/export',
      {
        schema: {
          tags,
          summary: "Everything held about one of a tenant's players, as one JSON document (audited)",
          params: Type.Object({
            tenant_id: Type.String({ minLength: 1, maxLength: 200 }),
            user_id: Type.String({ minLength: 1, maxLength: 200 }),
          }),
          response: { 200: PlayerDataExport, ...errorResponses(404) },
        },
      },
      (req) =>
        exportPlayerData(
          platform,
          requestStaffContext(platform, req),
          req.params.tenant_id,
          req.params.user_id,
        ),
    );
  };
}
