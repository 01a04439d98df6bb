import type { Updateable } from 'kysely';
import type { Executor } from './db/database.js';
import type { DownloadSource, DownloadSourcesTable } from './db/platform-tables.js';

/**
 * Takes a source's lease until `leaseUntil` unless another holder's lease still runs at `now`, creating the source's
 * row on first use; returns the row taken, undefined while another holds it.
 */
export async function leaseDownloadSource(
  db: Executor,
  source: { source_id: string; url: string },
  now: Date,
  leaseUntil: Date,
): Promise<DownloadSource | undefined> {
  await db
    .insertInto('download_sources')
    .values(source)
    .onConflict((oc) => oc.column('source_id').doNothing())
    .execute();
  return db
    .updateTable('download_sources')
    .set({ lease_until: leaseUntil })
    .where('source_id', '=', source.source_id)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .returningAll()
    .executeTakeFirst();
}

export function selectDownloadSources(db: Executor, ids: string[]): Promise<DownloadSource[]> {
  return db.selectFrom('download_sources').selectAll().where('source_id', 'in', ids).execute();
}

/** Writes a check's result to the source's row and returns the row. */
export function updateDownloadSource(
  db: Executor,
  sourceId: string,
  changes: Updateable<DownloadSourcesTable>,
): Promise<DownloadSource> {
  return db
    .updateTable('download_sources')
    .set(changes)
    .where('source_id', '=', sourceId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
