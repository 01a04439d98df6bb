import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import {
  columnArrays,
  precompiled,
  unnestRows,
  type ColumnArrays,
  type Param,
} from '../../platform/db/precompiled.js';
import type { CountryEntry, CountryStatus } from './geo.countries.js';
import type { GeoAuditLogTable } from './geo.tables.js';

/** Plain queries of the geo area. The country list is service-wide; the audit log is filtered by tenant. */

/** Inserts the entries not yet present (existing tiers are never touched); returns the codes inserted. */
export async function insertMissingCountries(
  db: Executor,
  entries: readonly CountryEntry[],
  now: Date,
): Promise<string[]> {
  const rows = await db
    .insertInto('geo_countries')
    .values(entries.map((entry) => ({ ...entry, updated_at: now })))
    .onConflict((oc) => oc.column('code').doNothing())
    .returning('code')
    .execute();
  return rows.map((row) => row.code);
}

/** Creates the list's version row unless it exists; true when this call created it. */
export async function createListVersion(
  db: Executor,
  input: { version: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .insertInto('geo_country_list')
    .values({ version: input.version, revision: 1, updated_at: input.now })
    .onConflict((oc) => oc.column('list_id').doNothing())
    .returning('revision')
    .execute();
  return rows.length > 0;
}

export function listVersion(db: Executor) {
  return db.selectFrom('geo_country_list').select(['version', 'revision']).executeTakeFirstOrThrow();
}

/** Moves the list to a new revision dated today; the row lock serialises concurrent changes. */
export function bumpListVersion(db: Executor, now: Date) {
  return db
    .updateTable('geo_country_list')
    .set((eb) => ({
      version: now.toISOString().slice(0, 10),
      revision: eb('revision', '+', 1),
      updated_at: now,
    }))
    .returning(['version', 'revision'])
    .executeTakeFirstOrThrow();
}

/** The whole list and its version in one statement, so the ETag always matches the entries it describes. */
export function listCountries(db: Executor) {
  return db
    .selectFrom('geo_countries')
    .crossJoin('geo_country_list')
    .select(['code', 'name', 'status', 'version', 'revision'])
    .orderBy('code')
    .execute();
}

export function findCountry(db: Executor, code: string, options: { forUpdate?: boolean } = {}) {
  let query = db.selectFrom('geo_countries').selectAll().where('code', '=', code);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export function setCountryStatus(db: Executor, code: string, status: CountryStatus, now: Date) {
  return db
    .updateTable('geo_countries')
    .set({ status, updated_at: now })
    .where('code', '=', code)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function recordChange(
  db: Executor,
  change: {
    code: string;
    previous_status: CountryStatus;
    new_status: CountryStatus;
    reason: string;
    revision: number;
    changed_at: Date;
    request_id: string | null;
  },
): Promise<void> {
  await db.insertInto('geo_country_changes').values(change).execute();
}

/** Every tenant, whatever its environment or status: tier changes are announced to all of them. */
export async function allTenantIds(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('tenants').select('tenant_id').orderBy('tenant_id').execute();
  return rows.map((row) => row.tenant_id);
}

const AUDIT_COLUMNS = {
  tenant_id: 'text',
  checked_at: 'timestamptz',
  request_id: 'text',
  ip_address: 'text',
  user_agent: 'text',
  context: 'text',
  resolver: 'text',
  country_code: 'text',
  region: 'text',
  status: 'text',
  cache: 'text',
} as const;

/** An audit row; `status` null means "the tier the list gives this place now", resolved in the same statement. */
export type NewAuditRow = Omit<
  { [K in keyof typeof AUDIT_COLUMNS]: Insertable<GeoAuditLogTable>[K] },
  'status'
> & { status: GeoAuditLogTable['status'] | null };

/** The list entry that decided a check: the region's (CA-ON) before its country's; null for an unlisted place. */
export interface DecidingEntry {
  request_id: string;
  status: CountryStatus | null;
  name: string | null;
}

const auditColumns = Object.keys(AUDIT_COLUMNS);
const columnList = sql.join(auditColumns.map((name) => sql.ref(name)));
/** Each check's audit values; a status left null is the deciding entry's tier (an unlisted place is allowed). */
const auditValues = auditColumns.map((name) =>
  name === 'status'
    ? sql`coalesce(c.status, 'status_' || coalesce(d.status, 'allowed'))`
    : sql.ref(`c.${name}`),
);

/**
 * The geo check's one statement: reads each check's tier fresh from the list and writes its audit row with the
 * resulting status, for a whole group commit's checks at once.
 */
const auditChecksStatement = precompiled(
  (_db, param: Param<ColumnArrays<typeof AUDIT_COLUMNS>>) =>
    sql<DecidingEntry>`
    with checks (${columnList}) as (${unnestRows(AUDIT_COLUMNS, param)}),
    deciding as (
      select c.request_id, t.status, t.name
      from checks c left join lateral (
        select status, name from geo_countries
        where code in (c.region, c.country_code)
        order by code = c.region desc
        limit 1) t on true
    ),
    stored as (
      insert into geo_audit_log (${columnList})
      select ${sql.join(auditValues)}
      from checks c join deciding d on d.request_id = c.request_id
    )
    select request_id, status, name from deciding`,
);

/** Audits checks; per row (in order), the list entry that decided it. */
export async function auditChecks(db: Executor, rows: NewAuditRow[]): Promise<DecidingEntry[]> {
  const entries = await auditChecksStatement.execute(db, columnArrays(AUDIT_COLUMNS, rows));
  const byRequest = new Map(entries.map((entry) => [entry.request_id, entry]));
  return rows.map((row) => byRequest.get(row.request_id)!);
}

/** Deletes up to `batch` audit rows checked before the cutoff (oldest first); returns how many went. */
export async function deleteAuditBefore(db: Executor, cutoff: Date, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('geo_audit_log')
    .where('geo_audit_id', 'in', (eb) =>
      eb
        .selectFrom('geo_audit_log')
        .select('geo_audit_id')
        .where('checked_at', '<', cutoff)
        .orderBy('checked_at')
        .limit(batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
