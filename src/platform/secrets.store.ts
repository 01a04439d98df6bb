import { sql, type Transaction } from 'kysely';
import type { Executor } from './db/database.js';
import type { DB } from './db/schema.js';
import { SEALED_PURPOSES, type SealedPurpose } from './secrets.js';

/** A column of encrypted values: its table, the row id its values are bound to, and their purpose. */
export interface SealedColumn {
  table: keyof DB & string;
  key: string;
  column: string;
  purpose: SealedPurpose;
  /** Rows an older release wrote in plain text (before encryption at rest), read as they are until rewritten. */
  legacyPlaintext: boolean;
}

/** Every column that holds encrypted values: the start-up check reads them, the re-encryption job rewrites them. */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  {
    table: 'tenants',
    key: 'tenant_id',
    column: 'signing_secret',
    purpose: SEALED_PURPOSES.signingSecret,
    legacyPlaintext: true,
  },
  {
    table: 'tenants',
    key: 'tenant_id',
    column: 'previous_signing_secret',
    purpose: SEALED_PURPOSES.signingSecret,
    legacyPlaintext: true,
  },
  {
    table: 'staff_accounts',
    key: 'staff_id',
    column: 'totp_secret',
    purpose: SEALED_PURPOSES.staffTotp,
    legacyPlaintext: false,
  },
  {
    table: 'secret_hash_keys',
    key: 'purpose',
    column: 'sealed_key',
    purpose: SEALED_PURPOSES.hashKey,
    legacyPlaintext: false,
  },
];

export interface StoredKeys {
  table: string;
  column: string;
  format: 'enc:v2' | 'enc:v1' | 'plaintext';
  /** The master key's id, for enc:v2. */
  key_id: string | null;
  values: number;
}

/**
 * How many stored values each column holds under each key id (and in each older format): one grouped scan of small
 * tables (tenants, staff accounts, hash keys), run at every start.
 */
export async function countStoredKeys(db: Executor): Promise<StoredKeys[]> {
  const parts = SEALED_COLUMNS.map(({ table, column }) => {
    const value = sql.ref(column);
    return sql`
      select ${sql.lit(table)} as "table", ${sql.lit(column)} as "column",
        case when starts_with(${value}, 'enc:v2:') then 'enc:v2'
             when starts_with(${value}, 'enc:v1:') then 'enc:v1' else 'plaintext' end as format,
        case when starts_with(${value}, 'enc:v2:') then split_part(${value}, ':', 3) end as key_id,
        count(*)::int as "values"
      from ${sql.table(table)} where ${value} is not null
      group by 3, 4`;
  });
  const { rows } = await sql<StoredKeys>`${sql.join(parts, sql` union all `)}`.execute(db);
  return rows;
}

/** One value of the column in the format from before key ids, if any remains (start-up checks that it opens). */
export async function oneLegacyValue(
  db: Executor,
  sealed: SealedColumn,
): Promise<{ row_id: string; value: string } | undefined> {
  const { rows } = await sql<{ row_id: string; value: string }>`
    select ${sql.ref(sealed.key)} as row_id, ${sql.ref(sealed.column)} as value from ${sql.table(sealed.table)}
    where starts_with(${sql.ref(sealed.column)}, 'enc:v1:') limit 1`.execute(db);
  return rows[0];
}

/**
 * The next rows after `after` (in row-id order) whose value is not sealed under `currentPrefix`, locked for this
 * transaction; rows another transaction holds are skipped, for a later pass.
 */
export async function lockStaleValues(
  tx: Transaction<DB>,
  sealed: SealedColumn,
  input: { currentPrefix: string; after: string | null; limit: number },
): Promise<{ row_id: string; value: string }[]> {
  const key = sql.ref(sealed.key);
  const value = sql.ref(sealed.column);
  const { rows } = await sql<{ row_id: string; value: string }>`
    select ${key} as row_id, ${value} as value from ${sql.table(sealed.table)}
    where ${value} is not null and not starts_with(${value}, ${input.currentPrefix})
      and (${input.after}::text is null or ${key} > ${input.after})
    order by ${key}
    limit ${input.limit}
    for update skip locked`.execute(tx);
  return rows;
}

/** Compare-and-set of one stored value: replaced only while it still holds `from`. */
export async function replaceSealedValue(
  tx: Transaction<DB>,
  sealed: SealedColumn,
  input: { rowId: string; from: string; to: string },
): Promise<void> {
  await sql`
    update ${sql.table(sealed.table)} set ${sql.ref(sealed.column)} = ${input.to}
    where ${sql.ref(sealed.key)} = ${input.rowId} and ${sql.ref(sealed.column)} = ${input.from}`.execute(tx);
}

export function selectHashKeys(db: Executor): Promise<{ purpose: string; sealed_key: string }[]> {
  return db.selectFrom('secret_hash_keys').select(['purpose', 'sealed_key']).execute();
}

/** Stores a purpose's hash key unless a process starting at the same time stored one first. */
export async function insertHashKey(
  db: Executor,
  row: { purpose: string; sealed_key: string; created_at: Date },
): Promise<void> {
  await db
    .insertInto('secret_hash_keys')
    .values(row)
    .onConflict((oc) => oc.column('purpose').doNothing())
    .execute();
}
