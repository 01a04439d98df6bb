import { lockSubject } from '../../platform/db/subject-lock.js';
import { sql, type Transaction } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { Environment } from '../../platform/db/platform-tables.js';
import type { DB } from '../../platform/db/schema.js';
import type { AppError } from '../../platform/errors.js';
import { insertOnce } from '../../platform/idempotency.js';
import type { Duration, SourceNames } from './exclusions.rules.js';
import type { ExclusionRow, NewExclusion } from './exclusions.tables.js';
import { ACTIVE, activeIn, sourceFor } from './statements/exclusion-check.js';

// The table definitions live in exclusions.tables.ts; platform/db/schema.ts and the store's callers import them here.
export type {
  ContactSightingsTable,
  ExclusionRow,
  ExclusionTables,
  ExclusionsTable,
  NewExclusion,
} from './exclusions.tables.js';

/** Serialises registrations of one player of one tenant, so a timed request cannot race past a permanent one. */
export async function lockUser(tx: Transaction<DB>, tenantId: string, userId: string): Promise<void> {
  await lockSubject(tx, 'exclusions', tenantId, userId);
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

/**
 * The tenant's own exclusion of the player in force at `at` (marked active and not past its expiry, whether or not
 * its expiry job has run), if any: a play session and the player status call ask it.
 */
export function activeOwnExclusion(
  db: Executor,
  tenantId: string,
  userId: string,
  at: Date,
): Promise<{ exclusion_id: string; expires_at: Date | null } | undefined> {
  return db
    .selectFrom('exclusions')
    .select(['exclusion_id', 'expires_at'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('status', '=', ACTIVE)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .orderBy('is_permanent', 'desc')
    .orderBy('expires_at', 'desc')
    .executeTakeFirst();
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

/** Whether the tenant has shown the contact whose keyed hash is in this column of the row. */
const shownBy = (tenantId: string, column: 'email_hash' | 'phone_hash') =>
  sql<boolean>`exists (select 1 from contact_sightings s where s.tenant_id = ${tenantId} and s.contact_hash = exclusions.${sql.ref(column)})`;

/**
 * One keyset page of the rows a tenant must enforce, in exclusion_id (creation) order after `after`: its own rows
 * with their contacts, and other operators' and the regulator's rows whose email or phone it has shown, with only
 * the contacts it has shown (the email in its canonical form: as registered it may carry a +tag naming the other
 * operator). A walk reads the environment's active rows once, spread over its pages.
 */
export function activePage(
  db: Executor,
  input: {
    tenantId: string;
    environment: Environment;
    after: string | null;
    limit: number;
    now: Date;
    sources: SourceNames;
  },
) {
  const own = sql<boolean>`tenant_id = ${input.tenantId}`;
  const emailShown = shownBy(input.tenantId, 'email_hash');
  const phoneShown = shownBy(input.tenantId, 'phone_hash');
  return activeIn(db, input.environment, input.now)
    .select([
      'exclusion_id',
      'duration',
      'effective_from',
      'expires_at',
      'is_permanent',
      'regulator_propagated',
    ])
    .select(
      sql<string | null>`case when ${own} then email when ${emailShown} then email_canonical end`.as('email'),
    )
    .select(sql<string | null>`case when ${own} or ${phoneShown} then phone end`.as('phone'))
    .select(sql<string | null>`case when ${own} then user_id end`.as('user_id'))
    .select(sourceFor(input.tenantId, input.sources).as('source'))
    .where((eb) => eb.or([own, emailShown, phoneShown]))
    .$if(input.after !== null, (qb) => qb.where('exclusion_id', '>', input.after!))
    .orderBy('exclusion_id')
    .limit(input.limit)
    .execute();
}

/** Records that tenants showed these contacts (in pairs), one statement for any number; known ones are skipped. */
export async function recordSightings(
  db: Executor,
  sightings: { tenantIds: string[]; hashes: string[]; at: Date },
): Promise<void> {
  if (sightings.hashes.length === 0) return;
  await sql`
    insert into contact_sightings (contact_hash, tenant_id, first_seen_at)
    select h, t, ${sightings.at} from unnest(${sightings.hashes}::text[], ${sightings.tenantIds}::text[]) as s (h, t)
    on conflict do nothing`.execute(db);
}

/**
 * The tenants of the row's environment, other than the one that registered it, that have shown its email or its
 * phone, and which of the two each has shown.
 */
export async function tenantsThatShowed(
  db: Executor,
  row: Pick<ExclusionRow, 'environment' | 'tenant_id' | 'email_hash' | 'phone_hash'>,
): Promise<Array<{ tenant_id: string; email: boolean; phone: boolean }>> {
  const hashes = [row.email_hash, row.phone_hash].filter((hash): hash is string => hash !== null);
  if (hashes.length === 0) return [];
  return db
    .selectFrom('contact_sightings as s')
    .innerJoin('tenants as t', 't.tenant_id', 's.tenant_id')
    .select('s.tenant_id')
    .select(sql<boolean>`coalesce(bool_or(s.contact_hash = ${row.email_hash}), false)`.as('email'))
    .select(sql<boolean>`coalesce(bool_or(s.contact_hash = ${row.phone_hash}), false)`.as('phone'))
    .where('s.contact_hash', 'in', hashes)
    .where('t.environment', '=', row.environment)
    .$if(row.tenant_id !== null, (qb) => qb.where('s.tenant_id', '<>', row.tenant_id!))
    .groupBy('s.tenant_id')
    .orderBy('s.tenant_id')
    .execute();
}

/** Rows stored before contacts were hashed (filled in by the service at start, a batch at a time). */
export function rowsWithoutHashes(db: Executor, limit: number) {
  return db
    .selectFrom('exclusions')
    .select(['exclusion_id', 'email_canonical', 'phone'])
    .where((eb) =>
      eb.or([
        eb.and([eb('email', 'is not', null), eb('email_hash', 'is', null)]),
        eb.and([eb('phone', 'is not', null), eb('phone_hash', 'is', null)]),
      ]),
    )
    .limit(limit)
    .execute();
}

export async function setHashes(
  db: Executor,
  rows: Array<{ exclusion_id: string; email_hash: string | null; phone_hash: string | null }>,
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update exclusions e set email_hash = h.email_hash, phone_hash = h.phone_hash
    from unnest(${rows.map((r) => r.exclusion_id)}::text[], ${rows.map((r) => r.email_hash)}::text[],
      ${rows.map((r) => r.phone_hash)}::text[]) as h (exclusion_id, email_hash, phone_hash)
    where e.exclusion_id = h.exclusion_id`.execute(db);
}

export function findExclusion(db: Executor, exclusionId: string): Promise<ExclusionRow | undefined> {
  return db.selectFrom('exclusions').selectAll().where('exclusion_id', '=', exclusionId).executeTakeFirst();
}

/** Locks the row for a staff decision on it (a void and its confirmation are serialised). */
export function lockExclusion(tx: Transaction<DB>, exclusionId: string): Promise<ExclusionRow | undefined> {
  return tx
    .selectFrom('exclusions')
    .selectAll()
    .where('exclusion_id', '=', exclusionId)
    .forUpdate()
    .executeTakeFirst();
}

/** active → voided; the row stops matching at once. */
export function markVoided(
  tx: Transaction<DB>,
  exclusionId: string,
  fields: { reason: string; voidedBy: string; confirmedBy: string | null; at: Date },
): Promise<ExclusionRow> {
  return tx
    .updateTable('exclusions')
    .set({
      status: 'voided',
      voided_at: fields.at,
      void_reason: fields.reason,
      voided_by: fields.voidedBy,
      void_confirmed_by: fields.confirmedBy,
    })
    .where('exclusion_id', '=', exclusionId)
    .where('status', '=', ACTIVE)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The register's rows an operator filed for this user, in force, expired or voided, newest first (exclusions_user). */
export function exclusionsOfUser(db: Executor, tenantId: string, userId: string) {
  return db
    .selectFrom('exclusions')
    .select([
      'exclusion_id',
      'duration',
      'is_permanent',
      'reason',
      'effective_from',
      'expires_at',
      'regulator_propagated',
      'status',
    ])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('effective_from', 'desc')
    .limit(100)
    .execute();
}

/**
 * One page of the regulator's rows, newest first (ids sort by creation), before the `before` id: a walk of the
 * primary key, where regulator rows are most of the register.
 */
export function regulatorRowsPage(db: Executor, page: { before: string | undefined; limit: number }) {
  return db
    .selectFrom('exclusions')
    .select([
      'exclusion_id',
      'environment',
      'email',
      'phone',
      'duration',
      'is_permanent',
      'status',
      'effective_from',
      'expires_at',
      'voided_at',
      'void_reason',
    ])
    .where('origin', '=', 'regulator')
    .$if(page.before !== undefined, (qb) => qb.where('exclusion_id', '<', page.before!))
    .orderBy('exclusion_id', 'desc')
    .limit(page.limit)
    .execute();
}
