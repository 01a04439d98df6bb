import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import { ListsFetchResponse, ListsStatus } from './sanctions.lists.schemas.js';
import { fetchLists, listsInForce, reloadLists } from './service/lists.js';

const tags = ['sanctions'];

/** Staff view of the sanctions lists this process serves, and the reload. */
export function sanctionsListsRoutes(app: FastifyInstance, platform: Platform): void {
  app.get(
    '/sanctions/lists',
    { schema: { tags, summary: 'The sanctions lists in force', response: { 200: ListsStatus } } },
    () => listsInForce(platform),
  );

  app.post(
    '/sanctions/lists/reload',
    {
      schema: {
        tags,
        summary: 'Re-read the lists directory now',
        response: { 200: ListsStatus, ...errorResponses(409) },
      },
    },
    () => reloadLists(platform),
  );

  app.post(
    '/sanctions/lists/fetch',
    {
      schema: {
        tags,
        summary: 'Download every configured list now, validate it, and use it if it passes',
        description:
          'The same run as the scheduled download (SANCTIONS_FETCH), whether or not the schedule is on. A list whose download fails or is refused keeps its version in force and raises an alert.',
        response: { 200: ListsFetchResponse, ...errorResponses(409) },
      },
    },
    () => fetchLists(platform),
  );
}
