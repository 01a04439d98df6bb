import type { Executor } from '../../platform/db/database.js';
import type { CountryEntry, CountryStatus } from './geo.rules.js';

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

/** Moves the list to its next revision, named `version`; the row lock serialises concurrent changes. */
export function bumpListVersion(db: Executor, version: string, now: Date) {
  return db
    .updateTable('geo_country_list')
    .set((eb) => ({
      version,
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
