import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { Environment, Timestamp } from '../../platform/db/platform-tables.js';
import type { DB } from '../../platform/db/schema.js';
import type { AppError } from '../../platform/errors.js';
import { insertOnce } from '../../platform/idempotency.js';
import {
  columnArrays,
  precompiled,
  unnestArrays,
  type ColumnArrays,
  type Param,
} from '../../platform/db/precompiled.js';
import type { Duration } from './durations.js';
import type { Source } from './exclusions.schemas.js';

/** One row of the national register: an operator's registration or a regulator master-list entry. */
export interface ExclusionsTable {
  exclusion_id: string;
  environment: Environment;
  origin: 'operator' | 'regulator';
  /** null for regulator rows. */
  tenant_id: string | null;
  user_id: string | null;
  email: string | null;
  phone: string | null;
  duration: Duration;
  is_permanent: boolean;
  reason: string | null;
  initiated_at: Timestamp | null;
  effective_from: Timestamp;
  expires_at: Timestamp | null;
  regulator_propagated: boolean;
  status: 'active' | 'expired';
  request_hash: string;
  expired_at: Timestamp | null;
}

export interface ExclusionTables {
  exclusions: ExclusionsTable;
}

export type ExclusionRow = Selectable<ExclusionsTable>;
export type NewExclusion = Omit<ExclusionRow, 'status' | 'expired_at'>;

const ACTIVE = sql.lit('active' as const);

/** The caller's own rows are `operator`; every other row (other tenants', the regulator's) is the national list. */
const sourceFor = (tenantId: string | RawBuilder<string>) =>
  sql<Source>`case when tenant_id = ${tenantId} then 'operator' else 'regulator_comprehensive' end`;

/** Serialises registrations of one player of one tenant, so a timed request cannot race past a permanent one. */
export async function lockUser(tx: Transaction<DB>, tenantId: string, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`exclusion:${tenantId}:${userId}`}, 0))`.execute(
    tx,
  );
}

/** Inserts unless an active exclusion holds (tenant, user, duration); see insertOnce. */
export function insertOperatorExclusion(
  tx: Transaction<DB>,
  row: NewExclusion,
  conflict: (existing: ExclusionRow) => AppError,
) {
  return insertOnce<ExclusionRow>(tx, {
    table: 'exclusions',
    values: { ...row, status: 'active' },
    key: ['tenant_id', 'user_id', 'duration'],
    while: { column: 'status', value: 'active' },
    conflict,
  });
}

/** Master-list rows, skipping entries identical to an active one (the partial unique index on request_hash). */
export function insertRegulatorRows(tx: Transaction<DB>, rows: NewExclusion[]): Promise<ExclusionRow[]> {
  return tx
    .insertInto('exclusions')
    .values(rows.map((row) => ({ ...row, status: 'active' as const })))
    .onConflict((oc) =>
      // Literals, not parameters: PostgreSQL matches the partial unique index when it plans the statement.
      oc
        .column('request_hash')
        .where('status', '=', ACTIVE)
        .where('origin', '=', sql.lit('regulator'))
        .doNothing(),
    )
    .returningAll()
    .execute();
}

export function activeRegulatorRows(db: Executor, requestHashes: string[]): Promise<ExclusionRow[]> {
  if (requestHashes.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('exclusions')
    .selectAll()
    .where('request_hash', 'in', requestHashes)
    .where('status', '=', ACTIVE)
    .where('origin', '=', 'regulator')
    .execute();
}

export async function hasActivePermanent(db: Executor, tenantId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('exclusions')
    .select('exclusion_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('status', '=', ACTIVE)
    .where('is_permanent', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}

/** Rows still marked active although their expiry has passed (their expiry job has not run yet). */
export function lapsedRows(
  db: Executor,
  match: { tenantId: string; userId: string; duration: Duration } | { requestHashes: string[] },
  now: Date,
): Promise<{ exclusion_id: string }[]> {
  let query = db
    .selectFrom('exclusions')
    .select('exclusion_id')
    .where('status', '=', ACTIVE)
    .where('expires_at', '<=', now);
  if ('requestHashes' in match) {
    if (match.requestHashes.length === 0) return Promise.resolve([]);
    query = query.where('origin', '=', 'regulator').where('request_hash', 'in', match.requestHashes);
  } else {
    query = query
      .where('tenant_id', '=', match.tenantId)
      .where('user_id', '=', match.userId)
      .where('duration', '=', match.duration);
  }
  return query.execute();
}

/** active → expired; undefined when the row was not active (already expired by another path). */
export function markExpired(
  tx: Transaction<DB>,
  exclusionId: string,
  now: Date,
): Promise<ExclusionRow | undefined> {
  return tx
    .updateTable('exclusions')
    .set({ status: 'expired', expired_at: now })
    .where('exclusion_id', '=', exclusionId)
    .where('status', '=', ACTIVE)
    .returningAll()
    .executeTakeFirst();
}

/** Every tenant of an environment, whatever its status: a suspended operator must still enforce when reinstated. */
export async function tenantIdsOf(db: Executor, environment: Environment): Promise<string[]> {
  const rows = await db
    .selectFrom('tenants')
    .select('tenant_id')
    .where('environment', '=', environment)
    .execute();
  return rows.map((row) => row.tenant_id);
}

/** Active now: marked active and not past its expiry, whether or not the expiry job has run yet. */
function activeIn(
  db: Executor,
  environment: Environment | RawBuilder<Environment>,
  now: Date | RawBuilder<Date>,
) {
  return db
    .selectFrom('exclusions')
    .where('environment', '=', environment)
    .where('status', '=', ACTIVE)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
}

/** What one live check reads, with PostgreSQL types: the checks of one group travel as one array of each. */
const CHECK_POINT = {
  tenantId: 'text',
  environment: 'text',
  email: 'text',
  phone: 'text',
  includeRegulator: 'boolean',
  now: 'timestamptz',
} as const;

export interface CheckParams {
  tenantId: string;
  environment: Environment;
  email: string | null;
  phone: string | null;
  includeRegulator: boolean;
  now: Date;
}

export interface CheckMatch {
  exclusion_id: string;
  duration: Duration;
  expires_at: Date | null;
  is_permanent: boolean;
  source: Source;
}

/** A column of the unnested checks (`p`) that checkStatement reads one row per check from. */
const checkColumn = <T>(name: string) => sql.ref<T>(`p.${name}`);

/**
 * One contact's rows active now for a check, with their source for its tenant: a plain scan of the contact's
 * (environment, contact) partial index. A null contact matches nothing.
 */
const activeBy = (db: Kysely<DB>, contact: 'email' | 'phone') =>
  activeIn(db, checkColumn<Environment>('environment'), checkColumn<Date>('now'))
    .select(['exclusion_id', 'duration', 'expires_at', 'is_permanent', 'tenant_id'])
    .select(sourceFor(checkColumn<string>('tenant_id')).as('source'))
    .where(contact, '=', checkColumn<string>(contact))
    .where(sql<boolean>`(p.include_regulator or tenant_id = p.tenant_id)`);

/**
 * The live check, for any number of checks at once: per check, the most restrictive active match for its email or
 * its phone. Most restrictive first: permanent, then the latest expiry, then the caller's own row over an equal one
 * from the national list. One statement, compiled once, whatever the group's size: the checks that arrive while one
 * is in flight share the next round trip. Each contact has its own `union all` branch: a single `email = … or
 * phone = …` would need a bitmap of both indexes.
 */
const checkStatement = precompiled(
  (db, param: Param<ColumnArrays<typeof CHECK_POINT>>) => sql<CheckMatch | { exclusion_id: null }>`
    select m.exclusion_id, m.duration, m.expires_at, m.is_permanent, m.source
    from ${unnestArrays(CHECK_POINT, param)}
      with ordinality as p (tenant_id, environment, email, phone, include_regulator, now, ord)
    left join lateral (
      select * from ${activeBy(db, 'email').unionAll(activeBy(db, 'phone'))} e
      order by e.is_permanent desc, e.expires_at desc nulls first, e.tenant_id is not distinct from p.tenant_id desc,
        e.exclusion_id
      limit 1
    ) m on true
    order by p.ord`,
);

/** Per check (in order), its most restrictive active match, or undefined. */
export async function mostRestrictiveMatches(
  db: Executor,
  checks: CheckParams[],
): Promise<Array<CheckMatch | undefined>> {
  const rows = await checkStatement.execute(db, columnArrays(CHECK_POINT, checks));
  return rows.map((row) => (row.exclusion_id === null ? undefined : (row as CheckMatch)));
}

/** The statement of a group of checks with its values bound (to inspect its plan). */
export const bindChecks = (checks: CheckParams[]) => checkStatement.bind(columnArrays(CHECK_POINT, checks));

/** One keyset page of the rows a tenant must enforce, in exclusion_id (creation) order after `after`. */
export function activePage(
  db: Executor,
  input: { tenantId: string; environment: Environment; after: string | null; limit: number; now: Date },
) {
  return activeIn(db, input.environment, input.now)
    .select(['exclusion_id', 'email', 'phone', 'duration', 'effective_from', 'expires_at', 'is_permanent'])
    .select(sql<string | null>`case when tenant_id = ${input.tenantId} then user_id end`.as('user_id'))
    .select(sourceFor(input.tenantId).as('source'))
    .$if(input.after !== null, (qb) => qb.where('exclusion_id', '>', input.after!))
    .orderBy('exclusion_id')
    .limit(input.limit)
    .execute();
}
