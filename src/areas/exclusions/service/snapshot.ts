import type { Platform, TenantContext } from '../../../platform/context.js';
import { invalidPayload } from '../contact.js';
import type { SnapshotPage } from '../exclusions.schemas.js';
import { SOURCE_NAMES } from '../exclusions.rules.js';
import * as store from '../exclusions.store.js';

const CURSOR_ID = /^exc_[0-9a-f]{32}$/;

/** The cursor is the last row's exclusion_id (ids sort by creation time), base64url-encoded to stay opaque. */
export const encodeCursor = (exclusionId: string) => Buffer.from(exclusionId, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): string {
  const id = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!CURSOR_ID.test(id)) throw invalidPayload('cursor is not a cursor this endpoint issued');
  return id;
}

/**
 * A page of every row the tenant must enforce now: its own and the national register's. Keyset on exclusion_id,
 * so rows added during a walk sort after the rows already returned and no row repeats across pages.
 */
export async function snapshotPage(
  platform: Platform,
  ctx: TenantContext,
  query: { cursor?: string | undefined; limit: number },
): Promise<SnapshotPage> {
  const after = query.cursor === undefined || query.cursor === '' ? null : decodeCursor(query.cursor);
  const rows = await store.activePage(platform.db, {
    tenantId: ctx.tenant.tenant_id,
    environment: ctx.tenant.environment,
    after,
    limit: query.limit + 1,
    now: platform.clock.now(),
    sources: SOURCE_NAMES,
  });
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return {
    exclusions: page.map((row) => ({
      ...row,
      effective_from: row.effective_from.toISOString(),
      expires_at: row.expires_at?.toISOString() ?? null,
    })),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(page[page.length - 1]!.exclusion_id) : null,
  };
}
