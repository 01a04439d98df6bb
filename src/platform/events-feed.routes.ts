import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from './context.js';
import { AppError } from './errors.js';
import { EventsFeedPage, EventsFeedQuery } from './events-feed.schemas.js';
import { feedPage, type FeedStart } from './events-feed.store.js';
import { errorResponses } from './schemas.js';
import { isRealInstant } from './validation.formats.js';

const EVENT_ID = /^evt_[0-9a-f]{32}$/;

function feedStart(since: string | undefined): FeedStart {
  if (since === undefined) return null;
  if (EVENT_ID.test(since)) return { afterEventId: since };
  if (isRealInstant(since)) return { at: new Date(since) };
  throw new AppError('invalid_request', 'since must be an event_id (evt_…) or an RFC 3339 timestamp');
}

/**
 * GET /v1/events: the tenant's own events across every area, as its webhooks carry them, for catching up after an
 * outage (docs/webhooks.md#the-events-feed). Draws on the default rate-limit bucket.
 */
export function eventsFeedRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/events',
      {
        schema: {
          tags: ['events'],
          summary: "The tenant's events, oldest first, as its webhooks deliver them",
          description:
            'Keyset-paginated: pass next_since as since until has_more is false. Covers at least the last 30 days.',
          querystring: EventsFeedQuery,
          response: { 200: EventsFeedPage, ...errorResponses(400, 401, 429) },
        },
      },
      async (request, reply) => {
        const { since, limit } = request.query;
        const tenantId = request.tenantContext.tenant.tenant_id;
        const rows = await feedPage(platform.db, tenantId, feedStart(since), limit);
        if (rows === 'unknown_event') {
          throw new AppError('invalid_request', 'since names no event of this tenant');
        }
        const page = rows.slice(0, limit);
        const nextSince = page.at(-1)?.event_id ?? since ?? null;
        // The stored envelopes as they are: the bytes the webhooks carried, never re-serialised.
        const body = `{"events":[${page.map((r) => r.payload).join(',')}],"has_more":${rows.length > limit},"next_since":${JSON.stringify(nextSince)}}`;
        // A JSON string is sent as it is (Fastify skips the serializer); its shape is EventsFeedPage.
        return reply.type('application/json; charset=utf-8').send(body as never);
      },
    );
  };
}
