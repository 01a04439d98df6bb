import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../context.js';
import { ClientTimestamp, errorResponses, Timestamp } from '../schemas.js';
import { requestStaffContext } from '../service-context.js';
import { REDELIVERY_HORIZON_DAYS } from './dispatcher.js';
import { enableDestination, redeliverSince } from './recovery.js';

const TenantParams = Type.Object({ tenant_id: Type.String() });

export const RequeuedEvents = Type.Object({
  tenant_id: Type.String(),
  since: Timestamp,
  requeued: Type.Integer({ description: 'How many events were queued again, oldest first' }),
});

export const RedeliverSinceRequest = Type.Object(
  {
    since: ClientTimestamp(
      null,
      'every undelivered event of the tenant produced at or after it is queued again',
    ),
  },
  { additionalProperties: false },
);

/** The staff's recovery of a tenant's webhook deliveries, under /backoffice/v1 (docs/webhooks.md). */
export function webhookBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/tenants/:tenant_id/webhook/redeliver',
      {
        schema: {
          summary: 'Queue again every failed or undelivered event of a tenant since a time, oldest first',
          params: TenantParams,
          body: RedeliverSinceRequest,
          response: { 202: RequeuedEvents, ...errorResponses(400, 404) },
        },
      },
      async (req, reply) =>
        reply
          .code(202)
          .send(
            await redeliverSince(
              requestStaffContext(platform, req),
              req.params.tenant_id,
              new Date(req.body.since),
            ),
          ),
    );

    app.post(
      '/tenants/:tenant_id/webhook/enable',
      {
        schema: {
          summary: `Enable a disabled destination; what it left undelivered in the last ${REDELIVERY_HORIZON_DAYS} days is queued again`,
          params: TenantParams,
          response: { 200: RequeuedEvents, ...errorResponses(400, 404) },
        },
      },
      (req) => enableDestination(requestStaffContext(platform, req), req.params.tenant_id),
    );
  };
}
