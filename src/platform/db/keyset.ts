import { sql, type RawBuilder } from 'kysely';

/**
 * Keyset pagination on (sort key, id): the rows after (or before) `key`, the (key, id) of a page's last row. The key
 * may be an expression, such as a subquery reading it from the row an id names.
 */
export const keyset = (
  columns: readonly [string, string],
  direction: '>' | '<',
  key: readonly [RawBuilder<unknown>, string],
) =>
  sql<boolean>`(${sql.join(columns.map((column) => sql.ref(column)))}) ${sql.raw(direction)} (${key[0]}, ${key[1]})`;

export const keysetAfter = (
  columns: readonly [string, string],
  after: readonly [RawBuilder<unknown>, string],
) => keyset(columns, '>', after);
