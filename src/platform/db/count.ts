import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Executor } from './database.js';

/**
 * How many rows a query returns, counted by the database: callers bound the query with a limit, so a count past it
 * stops there (a page reads "10,000 or more" instead of counting a whole table on every view).
 */
export async function countRows<DB, TB extends keyof DB, O>(
  db: Executor,
  rows: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const counted = await (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
    .selectFrom(rows.as('q'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(counted.n);
}
