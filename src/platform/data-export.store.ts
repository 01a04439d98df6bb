import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './db/database.js';
import type { PlayerLink } from './data-lifecycle.js';

/** Rows of one table are exported up to this many: a year of a heavy player's events fits well within it. */
export const EXPORT_ROWS_PER_TABLE = 100_000;

const jsonPath = (column: string, path: readonly string[]): RawBuilder<unknown> =>
  // payload is JSON stored as text (the outbox), details is jsonb: both read as jsonb.
  sql`(${sql.ref(column)}::jsonb #>> ${sql.lit(`{${path.join(',')}}`)})`;

/**
 * One table's rows of one player, as JSON objects, in the table's own column names: a generic read driven by the
 * lifecycle table's link (DATA_LIFECYCLE), so that every table that holds a player's data is exported the same way.
 */
export async function rowsOfPlayer(
  db: Executor,
  table: string,
  link: PlayerLink,
  tenantId: string,
  userId: string,
): Promise<Record<string, unknown>[]> {
  let where: RawBuilder<unknown>;
  if (link === 'user_id') {
    where = sql`t.tenant_id = ${tenantId} and t.user_id = ${userId}`;
  } else if ('json' in link) {
    const tenant = link.tenantPath ? jsonPath(link.json, link.tenantPath) : sql.ref('t.tenant_id');
    where = sql`${tenant} = ${tenantId} and ${jsonPath(link.json, link.path)} = ${userId}`;
  } else {
    const owners = link.of.map(
      ({ table: owner, key }) =>
        sql`select ${sql.ref(key)}::text from ${sql.table(owner)} where tenant_id = ${tenantId} and user_id = ${userId}`,
    );
    where = sql`${sql.ref(`t.${link.column}`)} in (${sql.join(owners, sql` union all `)})`;
  }
  const result = await sql<{ row: Record<string, unknown> }>`
    select to_jsonb(t) as row from ${sql.table(table)} as t where ${where} limit ${EXPORT_ROWS_PER_TABLE}`.execute(
    db,
  );
  return result.rows.map((r) => r.row);
}
