import type { Executor } from '../../../platform/db/database.js';
import { AppError } from '../../../platform/errors.js';
import * as lists from '../lists/lists.store.js';
import type { SanctionsListVersion } from '../sanctions.tables.js';

/** Staff views of the list versions: what each changed, and its screening of every player. */

/** A version as staff see it: what it changed and how far the screening of every player against it went. */
export function versionView(v: SanctionsListVersion) {
  return {
    version_id: v.version_id,
    list: v.list,
    published_on: v.published_on,
    format: v.format,
    files: v.files,
    entities: v.entities,
    previous_version_id: v.previous_version_id,
    accepted_at: v.accepted_at.toISOString(),
    fetched_at: v.fetched_at?.toISOString() ?? null,
    added: v.added,
    changed: v.changed,
    removed: v.removed,
    screening: v.screening_started_at
      ? {
          started_at: v.screening_started_at.toISOString(),
          total: v.screening_total ?? 0,
          screened: v.screened,
          new_hits: v.new_hits,
          phase: v.screening_finished_at ? null : v.screening_phase,
          finished_at: v.screening_finished_at?.toISOString() ?? null,
          seconds_to_last_player: v.screening_finished_at
            ? (v.screening_finished_at.getTime() - v.accepted_at.getTime()) / 1000
            : null,
        }
      : null,
  };
}
export type VersionView = ReturnType<typeof versionView>;

/** The versions recorded, newest first (of one list or all). */
export async function listVersions(db: Executor, query: { list?: string | undefined; limit: number }) {
  return { versions: (await lists.listVersions(db, query)).map(versionView) };
}

/** One version with the ids of every entity it added, changed and removed. */
export async function listVersionDetail(db: Executor, versionId: string) {
  const version = await lists.findVersion(db, versionId);
  if (!version) throw new AppError('list_version_not_found', `No list version ${versionId}`);
  const entity_ids = { added: [] as string[], changed: [] as string[], removed: [] as string[] };
  for (const change of await lists.changeIds(db, versionId)) entity_ids[change.kind].push(change.entity_id);
  return { ...versionView(version), entity_ids };
}

/** Per list, its latest version that changed something (null for a list with only its baseline). */
export async function lastChanges(db: Executor): Promise<Map<string, VersionView>> {
  return new Map((await lists.latestChanges(db)).map((v) => [v.list, versionView(v)]));
}
