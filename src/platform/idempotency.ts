import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Executor } from './db/database.js';
import type { DB } from './db/schema.js';
import type { AppError } from './errors.js';

/** SHA-256 of the request's defining fields in a canonical (sorted-key) JSON form. */
export function requestFingerprint(fields: Record<string, unknown>): string {
  const canonical = JSON.stringify(fields, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : value,
  );
  return createHash('sha256').update(canonical).digest('hex');
}

export interface InsertOnceOptions<Row> {
  table: keyof DB & string;
  values: Record<string, unknown> & { request_hash: string };
  /** The natural key: columns of a unique index on the table. */
  key: string[];
  /** Predicate of a partial unique index ("while active"), as column = value. */
  while?: { column: string; value: unknown };
  /** The area's 409 for a different request on the same natural key. */
  conflict: (existing: Row) => AppError;
  /**
   * The area's own insert, when it writes more than the row (one statement that also opens a case, say): it must
   * do nothing on a conflict with the natural key and return the row it inserted, else undefined.
   */
  insert?: (db: Executor) => Promise<Row | undefined>;
}

/**
 * The spec's natural-key idempotency, enforced by a unique index (never check-then-insert): the first request
 * creates the row; the same request again gets the original (created: false, answered 200); a different request
 * on the same key gets the area's 409. Concurrent duplicates wait on the index and resolve to one row.
 */
export async function insertOnce<Row>(
  db: Executor,
  options: InsertOnceOptions<Row>,
): Promise<{ row: Row; created: boolean }> {
  // The conflicting row can leave its "while" state between the insert and the read; then the insert may win.
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await tryInsertOnce(db, options);
    if (outcome) return outcome;
  }
  throw new Error(`idempotent insert into ${options.table} kept losing races`);
}

/** The table is named at run time, so its rows are typed by the caller. */
const dynamic = (db: Executor) => db as unknown as Kysely<Record<string, Record<string, unknown>>>;

async function tryInsertOnce<Row>(
  db: Executor,
  options: InsertOnceOptions<Row>,
): Promise<{ row: Row; created: boolean } | undefined> {
  const inserted = options.insert ? await options.insert(db) : await insertRow(db, options);
  if (inserted) return { row: inserted, created: true };

  let query = dynamic(db).selectFrom(options.table).selectAll();
  for (const column of options.key) query = query.where(column, '=', options.values[column] as never);
  if (options.while) query = query.where(options.while.column, '=', options.while.value as never);
  const existing = (await query.executeTakeFirst()) as (Row & { request_hash: string }) | undefined;
  if (!existing) return undefined;
  if (existing.request_hash !== options.values.request_hash) throw options.conflict(existing);
  return { row: existing, created: false };
}

function insertRow<Row>(db: Executor, options: InsertOnceOptions<Row>): Promise<Row | undefined> {
  return dynamic(db)
    .insertInto(options.table)
    .values(options.values)
    .onConflict((oc) => {
      const target = oc.columns(options.key as never);
      return (
        options.while
          ? // A literal, not a parameter: PostgreSQL matches the partial unique index when it plans the statement.
            target.where(options.while.column as never, '=', sql.lit(options.while.value) as never)
          : target
      ).doNothing();
    })
    .returningAll()
    .executeTakeFirst() as Promise<Row | undefined>;
}
