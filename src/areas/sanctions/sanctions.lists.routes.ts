import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { errorResponses } from '../../platform/schemas.js';
import { downloadStates } from '../../platform/downloads.js';
import { fetchSanctionsLists, listSourceId } from './sanctions.lists.fetch.js';
import { ListsFetchResponse, ListsStatus } from './sanctions.lists.schemas.js';
import { listsStatus } from './sanctions.lists.status.js';
import { productionLists } from './sanctions.production.js';

const tags = ['sanctions'];

/** Staff view of the sanctions lists this process serves, and the reload. */
export function sanctionsListsRoutes(app: FastifyInstance, platform: Platform): void {
  const sourceIds = platform.config.sanctionsSources.map((source) => listSourceId(source.list));
  const status = async () =>
    listsStatus(
      productionLists.holder,
      platform.config,
      await downloadStates(platform.db, sourceIds),
      platform.clock.now(),
    );

  app.get(
    '/sanctions/lists',
    { schema: { tags, summary: 'The sanctions lists in force', response: { 200: ListsStatus } } },
    async () => {
      // Asking means the deployment uses the lists: load them here too (a failure shows in the view).
      await productionLists.holder?.open().catch(() => {});
      return status();
    },
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
    async () => {
      const holder = productionLists.holder;
      if (!holder) {
        throw new AppError(
          'vendor_not_configured',
          409,
          'SANCTIONS_DATA_DIR is not set: there are no lists to reload',
        );
      }
      await holder.reload();
      return status();
    },
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
    async () => {
      if (!platform.config.sanctionsDataDir) {
        throw new AppError(
          'fetch_not_configured',
          409,
          'SANCTIONS_DATA_DIR is not set: there is no directory to download the lists into',
        );
      }
      const downloads = await fetchSanctionsLists(platform, productionLists.holder);
      // As for the lists view: asking means the deployment uses the lists.
      await productionLists.holder?.open().catch(() => {});
      return { downloads, lists: await status() };
    },
  );
}
