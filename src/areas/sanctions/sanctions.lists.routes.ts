import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { errorResponses } from '../../platform/schemas.js';
import { ListsStatus } from './sanctions.lists.schemas.js';
import { listsStatus } from './sanctions.lists.status.js';
import { productionLists } from './sanctions.production.js';

const tags = ['sanctions'];

/** Staff view of the sanctions lists this process serves, and the reload. */
export function sanctionsListsRoutes(app: FastifyInstance, platform: Platform): void {
  const status = () => listsStatus(productionLists.holder, platform.config, platform.clock.now());

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
        response: { 200: ListsStatus, ...errorResponses(503) },
      },
    },
    async () => {
      const holder = productionLists.holder;
      if (!holder) {
        throw new AppError(
          'vendor_unavailable',
          503,
          'SANCTIONS_DATA_DIR is not set: there are no lists to reload',
        );
      }
      await holder.reload();
      return status();
    },
  );
}
