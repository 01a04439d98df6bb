import { sql } from 'kysely';
import type { Executor } from './database.js';

/**
 * Serialises the changes of one subject (an area's view of one tenant's user) until the transaction ends: concurrent
 * requests for the same subject queue here, so rules that read before they write hold without races. One key format
 * for every area; `area` keeps one area's lock from blocking another's.
 */
export async function lockSubject(
  tx: Executor,
  area: string,
  tenantId: string,
  userId: string,
): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${area}/${tenantId}/${userId}`}, 0))`.execute(
    tx,
  );
}
