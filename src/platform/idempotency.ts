import { createHash } from 'node:crypto';
import type { Executor } from './db/database.js';
import type { DB } from './db/schema.js';
import type { AppError } from './errors.js';
import { findByNaturalKey, insertUnlessKeyTaken } from './idempotency.store.js';

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

async function tryInsertOnce<Row>(
  db: Executor,
  options: InsertOnceOptions<Row>,
): Promise<{ row: Row; created: boolean } | undefined> {
  const inserted = options.insert
    ? await options.insert(db)
    : await insertUnlessKeyTaken<Row>(db, options, options.values);
  if (inserted) return { row: inserted, created: true };

  const existing = await findByNaturalKey<Row & { request_hash: string }>(db, options, options.values);
  if (!existing) return undefined;
  if (existing.request_hash !== options.values.request_hash) throw options.conflict(existing);
  return { row: existing, created: false };
}
