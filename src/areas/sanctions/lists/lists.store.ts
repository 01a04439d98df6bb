import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import { RESCREENABLE_STATUSES } from '../sanctions.rules.js';
import type {
  SanctionsListChangesTable,
  SanctionsListVersion,
  SanctionsListVersionsTable,
} from '../sanctions.tables.js';

/**
 * The queries of list versions, their comparisons and the screening of players against what changed. Versions are
 * the service's (staff) records; the screening reads the screens of every tenant whose sanctions area uses the
 * production lists.
 */

const CHUNK = 1000;
const chunks = <T>(rows: T[]): T[][] =>
  Array.from({ length: Math.ceil(rows.length / CHUNK) }, (_, i) => rows.slice(i * CHUNK, (i + 1) * CHUNK));

// ---- versions and their comparison ----

/** Serialises the recording of one list's versions across processes until the transaction ends. */
export async function lockList(tx: Executor, list: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`sanctions-list/${list}`}, 0))`.execute(tx);
}

export function latestVersion(db: Executor, list: string): Promise<SanctionsListVersion | undefined> {
  return db
    .selectFrom('sanctions_list_versions')
    .selectAll()
    .where('list', '=', list)
    .orderBy('accepted_at', 'desc')
    .orderBy('version_id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Each list's latest accepted version: when it was published and when the service downloaded it (one statement). */
export function listsInForceDates(db: Executor) {
  return db
    .selectFrom('sanctions_list_versions')
    .distinctOn('list')
    .select(['list', 'published_on', 'fetched_at'])
    .orderBy('list')
    .orderBy('accepted_at', 'desc')
    .orderBy('version_id', 'desc')
    .execute();
}

/**
 * Players still to be screened by the runs under way: each list version's screening against its changes, and the
 * quarterly re-screen (0 when none runs).
 */
export async function screeningBacklog(db: Executor): Promise<number> {
  const { rows } = await sql<{ backlog: number }>`
    select coalesce((select sum(greatest(screening_total - screened, 0)) from sanctions_list_versions
                     where screening_started_at is not null and screening_finished_at is null), 0)
         + coalesce((select sum(greatest(total - screened - skipped, 0)) from sanctions_rescreen_runs
                     where finished_at is null), 0) as backlog`.execute(db);
  return Number(rows[0]!.backlog);
}

export async function versionRecorded(db: Executor, list: string, digest: string): Promise<boolean> {
  const row = await db
    .selectFrom('sanctions_list_versions')
    .select('version_id')
    .where('list', '=', list)
    .where('digest', '=', digest)
    .executeTakeFirst();
  return row !== undefined;
}

/** The entity digests of the list's latest accepted version. */
export async function listEntityDigests(db: Executor, list: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('sanctions_list_entities')
    .select(['entity_id', 'digest'])
    .where('list', '=', list)
    .execute();
  return new Map(rows.map((row) => [row.entity_id, row.digest]));
}

export async function insertVersion(
  tx: Executor,
  values: Insertable<SanctionsListVersionsTable>,
): Promise<void> {
  await tx.insertInto('sanctions_list_versions').values(values).execute();
}

/** Makes the stored entities of `list` those of the version just accepted: upserts the new and changed, deletes the removed. */
export async function applyListEntities(
  tx: Executor,
  list: string,
  upserts: Array<{ entity_id: string; digest: string }>,
  removed: string[],
): Promise<void> {
  for (const rows of chunks(upserts)) {
    await tx
      .insertInto('sanctions_list_entities')
      .values(rows.map((row) => ({ list, ...row })))
      .onConflict((oc) =>
        oc.columns(['list', 'entity_id']).doUpdateSet({ digest: (eb) => eb.ref('excluded.digest') }),
      )
      .execute();
  }
  for (const ids of chunks(removed)) {
    await tx
      .deleteFrom('sanctions_list_entities')
      .where('list', '=', list)
      .where('entity_id', 'in', ids)
      .execute();
  }
}

export async function insertChanges(
  tx: Executor,
  rows: Insertable<SanctionsListChangesTable>[],
): Promise<void> {
  for (const part of chunks(rows)) await tx.insertInto('sanctions_list_changes').values(part).execute();
}

/** The added and changed entities of a version, with their screening content. */
export function screenedChanges(db: Executor, versionId: string) {
  return db
    .selectFrom('sanctions_list_changes')
    .select(['entity_id', 'kind', 'digest', 'entity'])
    .where('version_id', '=', versionId)
    .where('kind', 'in', ['added', 'changed'])
    .orderBy('entity_id')
    .execute();
}

/** Every entity id a version added, changed or removed. */
export function changeIds(db: Executor, versionId: string) {
  return db
    .selectFrom('sanctions_list_changes')
    .select(['entity_id', 'kind'])
    .where('version_id', '=', versionId)
    .orderBy('entity_id')
    .execute();
}

export function findVersion(db: Executor, versionId: string): Promise<SanctionsListVersion | undefined> {
  return db
    .selectFrom('sanctions_list_versions')
    .selectAll()
    .where('version_id', '=', versionId)
    .executeTakeFirst();
}

export function lockVersion(tx: Executor, versionId: string): Promise<SanctionsListVersion | undefined> {
  return tx
    .selectFrom('sanctions_list_versions')
    .selectAll()
    .where('version_id', '=', versionId)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateVersion(
  tx: Executor,
  versionId: string,
  changes: Updateable<SanctionsListVersionsTable>,
): Promise<void> {
  await tx.updateTable('sanctions_list_versions').set(changes).where('version_id', '=', versionId).execute();
}

/** The newest versions, of one list or all, newest first. */
export function listVersions(db: Executor, filter: { list?: string | undefined; limit: number }) {
  let query = db
    .selectFrom('sanctions_list_versions')
    .selectAll()
    .orderBy('accepted_at', 'desc')
    .orderBy('version_id', 'desc')
    .limit(filter.limit);
  if (filter.list) query = query.where('list', '=', filter.list);
  return query.execute();
}

/** Per list, its latest version that changed something (a baseline compares with nothing). */
export function latestChanges(db: Executor) {
  return db
    .selectFrom('sanctions_list_versions')
    .selectAll()
    .distinctOn('list')
    .where((eb) => eb.or([eb('added', '>', 0), eb('changed', '>', 0), eb('removed', '>', 0)]))
    .orderBy('list')
    .orderBy('accepted_at', 'desc')
    .orderBy('version_id', 'desc')
    .execute();
}

/**
 * Of these (list, entity) pairs, those a list version removed and no later version brought back, with the version
 * that removed them.
 */
export async function delistings(db: Executor, pairs: Array<{ list: string; entity_id: string }>) {
  if (pairs.length === 0) return [];
  return db
    .selectFrom('sanctions_list_changes as c')
    .innerJoin('sanctions_list_versions as v', 'v.version_id', 'c.version_id')
    .select(['c.list', 'c.entity_id', 'v.version_id', 'v.published_on', 'v.accepted_at'])
    .where('c.kind', '=', 'removed')
    .where((eb) =>
      eb.or(pairs.map((p) => eb.and([eb('c.list', '=', p.list), eb('c.entity_id', '=', p.entity_id)]))),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('sanctions_list_entities as e')
            .select('e.entity_id')
            .whereRef('e.list', '=', 'c.list')
            .whereRef('e.entity_id', '=', 'c.entity_id'),
        ),
      ),
    )
    .orderBy('v.accepted_at', 'desc')
    .execute();
}

// ---- the players screened against a change ----

/** Screens of every live tenant cut over for sanctions, with no hit in force (clear or cleared). */
function eligibleScreens(db: Executor) {
  return db
    .selectFrom('sanctions_screens as s')
    .innerJoin('tenants as t', 't.tenant_id', 's.tenant_id')
    .where('t.environment', '=', 'live')
    .where(sql<boolean>`t.cutover_areas @> '["sanctions"]'::jsonb`)
    .where('s.status', 'in', RESCREENABLE_STATUSES);
}

export async function countEligibleScreens(db: Executor): Promise<number> {
  const row = await eligibleScreens(db)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The next `limit` eligible screens after `after` (screen_id order): the subject screened, nothing more. Not locked:
 * most are read and left alone; the few that match are locked and read again before they change.
 */
export function eligibleScreensBatch(
  db: Executor,
  batch: {
    after: string | null;
    limit: number;
    /** Only screens checked after this instant against another version of `list` than `digest`. */
    since?: { checkedAfter: Date; list: string; digest: string };
  },
) {
  let query = eligibleScreens(db)
    .select([
      's.screen_id',
      's.tenant_id',
      's.user_id',
      's.first_name',
      's.last_name',
      's.date_of_birth',
      's.nationality',
    ])
    .orderBy('s.screen_id')
    .limit(batch.limit);
  if (batch.after) query = query.where('s.screen_id', '>', batch.after);
  const since = batch.since;
  if (since) {
    query = query
      .where('s.checked_at', '>', since.checkedAfter)
      .where(sql<boolean>`(s.list_versions -> ${since.list} ->> 'digest') is distinct from ${since.digest}`);
  }
  return query.execute();
}
