import { sql, type RawBuilder } from 'kysely';
import type { Executor } from './db/database.js';
import type { ContactForm, ContactLink, PlayerLink } from './data-lifecycle.js';

/** Rows of one table are exported up to this many: a year of a heavy player's events fits well within it. */
export const EXPORT_ROWS_PER_TABLE = 100_000;

/**
 * payload is JSON stored as text (the outbox), details is jsonb: both read as jsonb, written with `->` and `->>` as
 * the outbox's index on a player's events is (events_user), so that the export reads that index, not every event.
 */
const jsonPath = (column: string, path: readonly string[]): RawBuilder<unknown> => {
  const keys = path.map((key) => sql.lit(key));
  const last = keys.pop()!;
  const inner = keys.reduce<RawBuilder<unknown>>(
    (json, key) => sql`${json} -> ${key}`,
    sql`${sql.ref(column)}::jsonb`,
  );
  return sql`(${inner} ->> ${last})`;
};

/**
 * The condition (on the table aliased `t`) that finds one player's rows, by the lifecycle's link (DATA_LIFECYCLE):
 * what an export reads and an erasure acts on.
 */
export function playerCondition(link: PlayerLink, tenantId: string, userId: string): RawBuilder<unknown> {
  if (link === 'user_id') return sql`t.tenant_id = ${tenantId} and t.user_id = ${userId}`;
  if ('json' in link) {
    const tenant = link.tenantPath ? jsonPath(link.json, link.tenantPath) : sql.ref('t.tenant_id');
    return sql`${tenant} = ${tenantId} and ${jsonPath(link.json, link.path)} = ${userId}`;
  }
  const owners = link.of.map(
    ({ table: owner, key }) =>
      sql`select ${sql.ref(key)}::text from ${sql.table(owner)} where tenant_id = ${tenantId} and user_id = ${userId}`,
  );
  const owned = sql`${sql.ref(`t.${link.column}`)} in (${sql.join(owners, sql` union all `)})`;
  return link.sameTenant ? sql`t.tenant_id = ${tenantId} and ${owned}` : owned;
}

/**
 * One table's rows of one player, as JSON objects, in the table's own column names: a generic read driven by the
 * lifecycle table's link, so that every table that holds a player's data is exported the same way.
 */
export async function rowsOfPlayer(
  db: Executor,
  table: string,
  link: PlayerLink,
  tenantId: string,
  userId: string,
): Promise<Record<string, unknown>[]> {
  const result = await playerRowsStatement(table, link, tenantId, userId).execute(db);
  return result.rows.map((r) => r.row);
}

/** The statement rowsOfPlayer runs (its plan is tested: the outbox's is read through events_user). */
export function playerRowsStatement(
  table: string,
  link: PlayerLink,
  tenantId: string,
  userId: string,
): RawBuilder<{ row: Record<string, unknown> }> {
  return sql<{ row: Record<string, unknown> }>`
    select to_jsonb(t) as row from ${sql.table(table)} as t where ${playerCondition(link, tenantId, userId)}
    limit ${EXPORT_ROWS_PER_TABLE}`;
}

/** A contact in each form it is stored in (the forms not given are absent: an email alone has no phone forms). */
export type ContactForms = Partial<Record<Exclude<ContactForm, 'any_hash'>, string>>;

/** The condition on one table's columns that matches any form of the contact, or undefined when none applies. */
function contactCondition(
  columns: readonly { column: string; form: ContactForm }[],
  forms: ContactForms,
): RawBuilder<unknown> | undefined {
  const hashes = [forms.email_hash, forms.phone_hash].filter((h): h is string => h !== undefined);
  const matches = columns.flatMap(({ column, form }) => {
    const ref = sql.ref(`t.${column}`);
    if (form === 'any_hash') return hashes.length ? [sql`${ref} in (${sql.join(hashes)})`] : [];
    const value = forms[form];
    if (value === undefined) return [];
    // Emails are compared without case: a table may keep one as it was typed.
    return [form === 'email' ? sql`lower(${ref}) = ${value}` : sql`${ref} = ${value}`];
  });
  return matches.length ? sql`(${sql.join(matches, sql` or `)})` : undefined;
}

/** One table's rows of one contact (an email or a phone in the register), across tenants, as JSON objects. */
export async function rowsOfContact(
  db: Executor,
  table: string,
  link: ContactLink,
  forms: ContactForms,
  owners: (table: string) => ContactLink | undefined,
): Promise<Record<string, unknown>[]> {
  const statement = contactRowsStatement(table, link, forms, owners);
  if (!statement) return [];
  const result = await statement.execute(db);
  return result.rows.map((r) => r.row);
}

/**
 * The statement rowsOfContact runs, or undefined when no form of the contact applies to the table (its plan is
 * tested: the register is read through its contact indexes).
 */
export function contactRowsStatement(
  table: string,
  link: ContactLink,
  forms: ContactForms,
  owners: (table: string) => ContactLink | undefined,
): RawBuilder<{ row: Record<string, unknown> }> | undefined {
  let where: RawBuilder<unknown> | undefined;
  if ('columns' in link) {
    where = contactCondition(link.columns, forms);
  } else {
    const owner = owners(link.of);
    const ownerWhere = owner && 'columns' in owner ? contactCondition(owner.columns, forms) : undefined;
    if (ownerWhere)
      where = sql`${sql.ref(`t.${link.column}`)} in (select ${sql.ref(`t.${link.key}`)} from ${sql.table(link.of)} as t where ${ownerWhere})`;
  }
  if (!where) return undefined;
  return sql<{ row: Record<string, unknown> }>`
    select to_jsonb(t) as row from ${sql.table(table)} as t where ${where} limit ${EXPORT_ROWS_PER_TABLE}`;
}
