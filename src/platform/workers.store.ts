import { sql } from 'kysely';
import type { Executor } from './db/database.js';

/**
 * Vacuums a queue table. skip_locked: another process's vacuum of the same queue is as good as this one. truncate
 * false: shrinking the file needs an exclusive lock that the queue's inserts hold off (the vacuum retried for up to
 * 5 s, inserts waiting behind it); the freed space is reused by the next rows instead.
 */
export async function vacuumQueueTable(db: Executor, table: string): Promise<void> {
  await sql`vacuum (skip_locked, truncate false) ${sql.table(table)}`.execute(db);
}
