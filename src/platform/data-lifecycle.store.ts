import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './db/database.js';
import type { Treatment } from './data-lifecycle.js';

/** The prefixes of pseudonymised values: a value that has one is never pseudonymised again. */
const PSEUDONYM = 'pseudonym:';
const HASHED = 'hash:';

/**
 * A keyed hash as the database computes it: SHA-256 of the pseudonym key followed by the value's UTF-8 bytes, its
 * first 128 bits in hex. The key has a fixed length and the value ends the input, so a prefix key is as good as an
 * HMAC here; PostgreSQL and PGlite compute it with their built-in sha256, with no extension.
 */
const keyedHash = (key: Buffer, value: RawBuilder<unknown>) =>
  sql<string>`left(encode(sha256(${key}::bytea || convert_to(${value}, 'UTF8')), 'hex'), 32)`;

/** A player's pseudonym, as `pseudonymiseRows` writes it: how the service finds a pseudonymised player's records. */
export function pseudonymOf(key: Buffer, tenantId: string | null, userId: string): string {
  return (
    PSEUDONYM +
    createHash('sha256')
      .update(key)
      .update(`${tenantId ?? ''}:${userId}`, 'utf8')
      .digest('hex')
      .slice(0, 32)
  );
}

const jsonPath = (column: RawBuilder<unknown>, path: readonly string[]) =>
  sql<string>`(${column}::jsonb #>> ${sql.lit(`{${path.join(',')}}`)})`;

/** One column's treatment: the value it is set to, and whether the row still needs it. */
function treat(column: string, treatment: Treatment, key: Buffer) {
  const ref = sql.ref(`t.${column}`);
  const pseudonym = (tenant: RawBuilder<unknown>, id: RawBuilder<unknown>) =>
    sql<string>`${PSEUDONYM} || ${keyedHash(key, sql`${tenant} || ':' || ${id}`)}`;
  if (typeof treatment === 'object') {
    const id = jsonPath(ref, treatment.pseudonymAt);
    const tenant = treatment.tenantAt ? jsonPath(ref, treatment.tenantAt) : sql`t.tenant_id`;
    const set = sql`jsonb_set(${ref}::jsonb, ${sql.lit(`{${treatment.pseudonymAt.join(',')}}`)}, to_jsonb(${pseudonym(sql`coalesce(${tenant}, '')`, id)}))`;
    return {
      set: treatment.jsonText ? sql`${set}::text` : set,
      pending: sql`(${id} is not null and ${id} not like ${`${PSEUDONYM}%`})`,
    };
  }
  switch (treatment) {
    case 'pseudonym':
      return {
        set: pseudonym(sql`coalesce(t.tenant_id, '')`, ref),
        pending: sql`(${ref} is not null and ${ref} not like ${`${PSEUDONYM}%`})`,
      };
    case 'hash':
      return {
        set: sql`${HASHED} || ${keyedHash(key, ref)}`,
        pending: sql`(${ref} is not null and ${ref} not like ${`${HASHED}%`})`,
      };
    case 'year':
      return {
        set: sql`date_trunc('year', ${ref})::date`,
        pending: sql`${ref} <> date_trunc('year', ${ref})::date`,
      };
    case 'erase':
      return { set: sql`null`, pending: sql`${ref} is not null` };
  }
}

const treatments = (columns: { readonly [column: string]: Treatment | undefined }, key: Buffer) =>
  Object.entries(columns).flatMap(([column, treatment]) =>
    treatment ? [{ column, ...treat(column, treatment, key) }] : [],
  );

const pendingOf = (treated: { pending: RawBuilder<unknown> }[]) =>
  sql.join(
    treated.map((c) => c.pending),
    sql` or `,
  );

/** The rows (aliased `t`) that pseudonymising with `columns` would still change: what a batch of them is taken from. */
export function stillToPseudonymise(
  columns: { readonly [column: string]: Treatment | undefined },
  key: Buffer,
): RawBuilder<unknown> {
  const treated = treatments(columns, key);
  return treated.length === 0 ? sql`false` : sql`(${pendingOf(treated)})`;
}

/**
 * Pseudonymises the rows of `table` (aliased `t` in `where`) that still hold something `columns` would change: each
 * column is set only where it still needs it, so a second run changes nothing. Returns the rows changed. The caller
 * bounds the rows by `where` (one player's, one batch's keys), which also lets the planner use the table's indexes.
 */
export async function pseudonymiseRows(
  db: Executor,
  table: string,
  columns: { readonly [column: string]: Treatment | undefined },
  where: RawBuilder<unknown>,
  key: Buffer,
): Promise<number> {
  const treated = treatments(columns, key);
  if (treated.length === 0) return 0;
  const pending = pendingOf(treated);
  const sets = sql.join(
    treated.map(
      (c) =>
        sql`${sql.ref(c.column)} = case when ${c.pending} then ${c.set} else ${sql.ref(`t.${c.column}`)} end`,
    ),
  );
  const result =
    await sql`update ${sql.table(table)} as t set ${sets} where ${where} and (${pending})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Deletes the rows of `table` (aliased `t` in `where`, which bounds them); returns how many went. */
export async function deleteRows(db: Executor, table: string, where: RawBuilder<unknown>): Promise<number> {
  const result = await sql`delete from ${sql.table(table)} as t where ${where}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The condition (on `t`) of rows that still protect the player: `column` in `values`, not past `until` (a row
 * without one protects until something else ends it).
 */
export function inForceCondition(
  inForce: { column: string; values: readonly string[]; until?: string },
  now: Date,
): RawBuilder<unknown> {
  const held = sql`${sql.ref(`t.${inForce.column}`)} in (${sql.join(inForce.values)})`;
  if (!inForce.until) return held;
  const until = sql.ref(`t.${inForce.until}`);
  return sql`(${held} and (${until} is null or ${until} > ${now}::timestamptz))`;
}

/** How many rows of `table` match `where`, and the earliest of their `until` (null: none has one). */
export async function countRows(
  db: Executor,
  table: string,
  where: RawBuilder<unknown>,
  until?: string,
): Promise<{ records: number; until: Date | null }> {
  const earliest = until ? sql`min(${sql.ref(`t.${until}`)})` : sql`null::timestamptz`;
  const result = await sql<{ records: string | number; until: Date | string | null }>`
    select count(*) as records, ${earliest} as until from ${sql.table(table)} as t where ${where}`.execute(
    db,
  );
  const row = result.rows[0];
  return { records: Number(row?.records ?? 0), until: row?.until == null ? null : new Date(row.until) };
}

/** Rows matching both conditions. */
export const both = (a: RawBuilder<unknown>, b: RawBuilder<unknown>) => sql`(${a} and ${b})`;

/** Rows matching the first condition and not the second. */
export const butNot = (a: RawBuilder<unknown>, b: RawBuilder<unknown>) => sql`(${a} and not ${b})`;
