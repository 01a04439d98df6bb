import { sql } from 'kysely';
import type { Executor } from './db/database.js';

/** Where a page of the feed starts: after one event, or at a time. */
export type FeedStart = { afterEventId: string } | { at: Date } | null;

/**
 * One page of a tenant's events in (created_at, event_id) order, the payload text exactly as the webhook sends it.
 * Returns limit + 1 rows at most, so the caller knows whether more follow. Another tenant's event id never anchors
 * a page: it matches no row of this tenant, and the caller refuses it.
 */
export async function feedPage(
  db: Executor,
  tenantId: string,
  start: FeedStart,
  limit: number,
): Promise<{ event_id: string; payload: string }[] | 'unknown_event'> {
  let query = db
    .selectFrom('events')
    .select(['event_id', 'payload'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('event_id')
    .limit(limit + 1);
  if (start && 'at' in start) query = query.where('created_at', '>=', start.at);
  if (start && 'afterEventId' in start) {
    const anchor = await db
      .selectFrom('events')
      .select(['created_at', 'event_id'])
      .where('tenant_id', '=', tenantId)
      .where('event_id', '=', start.afterEventId)
      .executeTakeFirst();
    if (!anchor) return 'unknown_event';
    query = query.where(
      sql<boolean>`(created_at, event_id) > (${anchor.created_at}::timestamptz, ${anchor.event_id})`,
    );
  }
  return query.execute();
}

/** The envelope's data.user_id, as the proposed index events_user stores it (the expression must match). */
const eventUserId = sql<string>`(payload::jsonb -> 'data' ->> 'user_id')`;

/**
 * The tenant's latest webhook events about this user, newest first, with their delivery state: events_user indexes
 * exactly this expression of the payload.
 */
export function recentEventsOfUser(db: Executor, tenantId: string, userId: string, limit: number) {
  return db
    .selectFrom('events')
    .select(['event_id', 'event', 'created_at', 'delivery_status', 'attempt_count', 'delivered_at'])
    .where('tenant_id', '=', tenantId)
    .where(eventUserId, '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('event_id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The tenant's events of one name about this user, newest first, `max` at most, each with how many there are in
 * all (`total`, counted before the limit).
 */
export function eventsOfUser(db: Executor, tenantId: string, userId: string, event: string, max: number) {
  return db
    .selectFrom('events')
    .select(['event_id', 'created_at', 'payload', sql<string>`count(*) over ()`.as('total')])
    .where('tenant_id', '=', tenantId)
    .where(eventUserId, '=', userId)
    .where('event', '=', event)
    .orderBy('created_at', 'desc')
    .orderBy('event_id', 'desc')
    .limit(max)
    .execute();
}
