import { sql } from 'kysely';
import type { Executor } from './database.js';

/** One key format for every area; `area` keeps one area's lock from blocking another's. */
const lockKey = (area: string, tenantId: string, userId: string) => `${area}/${tenantId}/${userId}`;

/**
 * Serialises the changes of one subject (an area's view of one tenant's user) until the transaction ends: concurrent
 * requests for the same subject queue here, so rules that read before they write hold without races.
 */
export async function lockSubject(
  tx: Executor,
  area: string,
  tenantId: string,
  userId: string,
): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${lockKey(area, tenantId, userId)}, 0))`.execute(
    tx,
  );
}

/**
 * lockSubject for several subjects at once (a batch of checks), in one statement. They are taken in the order of
 * their keys' hashes (the locks themselves), so two batches holding some of the same subjects never wait for each other in a cycle.
 */
export async function lockSubjects(
  tx: Executor,
  area: string,
  subjects: ReadonlyArray<{ tenantId: string; userId: string }>,
): Promise<void> {
  const keys = subjects.map(({ tenantId, userId }) => lockKey(area, tenantId, userId));
  await sql`select count(pg_advisory_xact_lock(k)) from (
      select hashtextextended(key, 0) as k from unnest(${keys}::text[]) as key order by 1) as ordered`.execute(
    tx,
  );
}
