import { sql, type Kysely } from 'kysely';
import type { Executor } from './db/database.js';
import type { DB } from './db/schema.js';

/** Where a natural key lives: its table, its columns and, for a partial unique index, the index's predicate. */
export interface NaturalKey {
  table: keyof DB & string;
  /** Columns of a unique index on the table. */
  key: string[];
  /** Predicate of a partial unique index ("while active"), as column = value. */
  while?: { column: string; value: unknown } | undefined;
}

/** The table is named at run time, so its rows are typed by the caller. */
const dynamic = (db: Executor) => db as unknown as Kysely<Record<string, Record<string, unknown>>>;

/** Inserts the row unless it conflicts with the natural key; returns the row inserted, else undefined. */
export function insertUnlessKeyTaken<Row>(
  db: Executor,
  target: NaturalKey,
  values: Record<string, unknown>,
): Promise<Row | undefined> {
  return dynamic(db)
    .insertInto(target.table)
    .values(values)
    .onConflict((oc) => {
      const conflict = oc.columns(target.key as never);
      return (
        target.while
          ? // A literal, not a parameter: PostgreSQL matches the partial unique index when it plans the statement.
            conflict.where(target.while.column as never, '=', sql.lit(target.while.value) as never)
          : conflict
      ).doNothing();
    })
    .returningAll()
    .executeTakeFirst() as Promise<Row | undefined>;
}

/** The row holding the natural key that `values` names (within the partial index's predicate), if any. */
export async function findByNaturalKey<Row>(
  db: Executor,
  target: NaturalKey,
  values: Record<string, unknown>,
): Promise<Row | undefined> {
  let query = dynamic(db).selectFrom(target.table).selectAll();
  for (const column of target.key) query = query.where(column, '=', values[column] as never);
  if (target.while) query = query.where(target.while.column, '=', target.while.value as never);
  return (await query.executeTakeFirst()) as Row | undefined;
}
