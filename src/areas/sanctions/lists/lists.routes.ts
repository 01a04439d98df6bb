import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Platform } from '../../../platform/context.js';
import { errorResponses } from '../../../platform/schemas.js';
import { Type } from 'typebox';
import {
  ListsFetchResponse,
  ListsStatus,
  ListVersionDetail,
  ListVersions,
  ListVersionsQuery,
} from './lists.schemas.js';
import { listVersionDetail, listVersions } from '../service/list-versions.js';
import { fetchLists, listsInForce, reloadLists } from '../service/lists.js';

const tags = ['sanctions'];

/** Staff view of the sanctions lists this process serves, and the reload. */
export function sanctionsListsRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/sanctions/lists',
      { schema: { tags, summary: 'The sanctions lists in force', response: { 200: ListsStatus } } },
      () => listsInForce(platform),
    );

    app.get<{ Querystring: ListVersionsQuery }>(
      '/sanctions/lists/versions',
      {
        schema: {
          tags,
          summary: 'The list versions accepted, what each changed, and its screening of every player',
          querystring: ListVersionsQuery,
          response: { 200: ListVersions, ...errorResponses(400) },
        },
      },
      (req) => listVersions(platform.db, req.query),
    );

    app.get<{ Params: { version_id: string } }>(
      '/sanctions/lists/versions/:version_id',
      {
        schema: {
          tags,
          summary: 'One list version with the ids of every entity it added, changed and removed',
          params: Type.Object({ version_id: Type.String({ maxLength: 64 }) }),
          response: { 200: ListVersionDetail, ...errorResponses(404) },
        },
      },
      (req) => listVersionDetail(platform.db, req.params.version_id),
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
  };
}
