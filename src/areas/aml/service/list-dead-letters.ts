import type { ServiceContext } from '../../../platform/context.js';
import { listDeadLetters } from '../aml.dead-letters.store.js';

/** The dead letters, oldest first, a page at a time (after: the last dead_letter_id of the previous page). */
export async function staffDeadLetters(
  ctx: ServiceContext,
  query: { tenant_id?: string | undefined; redriven: boolean; after?: string | undefined; limit: number },
) {
  const rows = await listDeadLetters(ctx.db, {
    tenantId: query.tenant_id,
    redriven: query.redriven,
    after: query.after,
    limit: query.limit,
  });
  return { dead_letters: rows };
}
