import { sql } from 'kysely';
import type { Executor } from './db/database.js';
import type { DB } from './db/schema.js';

/** A table that a retention job purges: its key, and the time a row's retention counts from. */
export interface Purged<T extends keyof DB & string> {
  table: T;
  key: keyof DB[T] & string;
  at: keyof DB[T] & string;
}

/** Deletes at most `batch` rows whose `at` is before `cutoff`, oldest first; returns how many went. */
export async function deleteOldest<T extends keyof DB & string>(
  db: Executor,
  purged: Purged<T>,
  cutoff: Date,
  batch: number,
): Promise<number> {
  const { table, key, at } = purged;
  const result = await sql`
    delete from ${sql.table(table)} where ${sql.ref(key)} in (
      select ${sql.ref(key)} from ${sql.table(table)}
      where ${sql.ref(at)} < ${cutoff}::timestamptz
      order by ${sql.ref(at)}
      limit ${batch}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
