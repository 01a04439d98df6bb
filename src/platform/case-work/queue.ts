import type { ServiceContext } from '../context.js';
import { AppError } from '../errors.js';
import { isRealInstant } from '../validation.formats.js';
import type { AssigneeFilter, QueueCase, QueueTable, ReviewQueueDescriptor } from './descriptor.js';
import * as store from './queue.store.js';

export { countAwaiting } from './queue.store.js';

/**
 * A review queue: an area's cases that wait on a reviewer, oldest due first, walked a page at a time by an opaque
 * keyset cursor, with the overdue and assignee filters and each case's neighbours. The staff's queue spans tenants.
 */

/** A listing's filters, named as the back-office queries name them. */
export interface QueueFilter {
  /** One status, or any of several (the console's "awaiting review"); neither: every status. */
  status?: string | undefined;
  statuses?: readonly string[] | undefined;
  tenant_id?: string | undefined;
  user_id?: string | undefined;
  /** true: awaiting review at or past the due time; false: every other case. */
  overdue?: boolean | undefined;
  assignee?: AssigneeFilter | undefined;
  /** next_cursor of the previous page. */
  cursor?: string | undefined;
  limit: number;
}

type Reader = Pick<ServiceContext, 'db' | 'clock'>;

/** A case's place in its queue: (due time, id); the due time is null while a row has not joined the queue. */
function placeOf<TB extends QueueTable>(queue: ReviewQueueDescriptor<TB>, found: QueueCase<TB>) {
  const row = found as Record<string, unknown>;
  return { dueAt: row[queue.dueAt] as Date | null, id: row[queue.id] as string };
}

/** One page of the queue, and the cursor of the next (null on the last page). */
export async function listReviewQueue<TB extends QueueTable>(
  ctx: Reader,
  queue: ReviewQueueDescriptor<TB>,
  filter: QueueFilter,
): Promise<{ cases: QueueCase<TB>[]; next_cursor: string | null }> {
  const rows = await store.selectCases(ctx.db, queue, {
    statuses: filter.statuses ?? (filter.status === undefined ? undefined : [filter.status]),
    tenantId: filter.tenant_id,
    userId: filter.user_id,
    overdue: filter.overdue,
    at: ctx.clock.now(),
    after: filter.cursor ? decodeReviewCursor(filter.cursor) : undefined,
    assignee: filter.assignee,
    // One more than the page: whether there is a next page.
    limit: filter.limit + 1,
  });
  const cases = rows.slice(0, filter.limit);
  const last = rows.length > filter.limit ? placeOf(queue, cases.at(-1)!) : undefined;
  return { cases, next_cursor: last ? encodeReviewCursor(last.dueAt!, last.id) : null };
}

/** The cases awaiting review just before and just after this one in the queue: a case page's previous and next. */
export async function queueNeighbours<TB extends QueueTable>(
  ctx: Pick<ServiceContext, 'db'>,
  queue: ReviewQueueDescriptor<TB>,
  found: QueueCase<TB>,
): Promise<{ prev: string | undefined; next: string | undefined }> {
  const { dueAt, id } = placeOf(queue, found);
  if (!dueAt) return { prev: undefined, next: undefined };
  return store.neighbourIds(ctx.db, queue, { dueAt, id });
}

/** What every queue shows of a case: who and what it is, when it is due, and whether it awaits review. */
export function queueEntry<TB extends QueueTable>(
  queue: ReviewQueueDescriptor<TB>,
  found: QueueCase<TB>,
  now: Date,
) {
  const row = found as Record<string, unknown> & { tenant_id: string; user_id: string; status: string };
  const { dueAt, id } = placeOf(queue, found);
  return {
    id,
    tenant_id: row.tenant_id,
    user_id: row.user_id,
    status: row.status,
    due_at: dueAt!,
    sla_breached: slaBreached(dueAt!, row[queue.decidedAt] as Date | null, now),
    awaiting: queue.awaiting.includes(row.status),
  };
}

/** Whether a review missed its due time: still awaiting a decision at or past it, or decided at or after it. */
export const slaBreached = (dueAt: Date, decidedAt: Date | null, now: Date): boolean =>
  (decidedAt ?? now) >= dueAt;

/** A review queue's keyset cursor: the (due time, case id) of a page's last case, opaque to callers. */
const encodeReviewCursor = (dueAt: Date, id: string): string =>
  Buffer.from(JSON.stringify([dueAt.toISOString(), id])).toString('base64url');

function decodeReviewCursor(cursor: string): { dueAt: Date; id: string } {
  try {
    const [due, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    // A made-up cursor may hold any date: only a real instant of years 0001 to 9999 reaches the database.
    if (typeof id === 'string' && typeof due === 'string' && isRealInstant(due)) {
      return { dueAt: new Date(due), id };
    }
  } catch {
    // Falls through to the 400 below.
  }
  throw new AppError('invalid_request', 'cursor is not one this listing returned');
}
