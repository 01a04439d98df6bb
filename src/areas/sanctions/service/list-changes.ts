import type { Transaction } from 'kysely';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { downloadStates } from '../../../platform/downloads.js';
import { newId } from '../../../platform/ids.js';
import { nextBatchDue, scheduleJob } from '../../../platform/scheduler.js';
import type { SanctionsEntity } from '../lists/entity.js';
import { compareVersions } from '../lists/screening-content.js';
import { productionSanctionsMatcher } from '../matching/production-matcher.js';
import { buildSanctionsIndex } from '../matching/sanctions-index.js';
import { listSourceId } from '../lists/fetch.js';
import type { ServedList } from '../lists/sanctions-lists.js';
import * as lists from '../lists/lists.store.js';
import type { ListVersion, SanctionsMatcher } from '../sanctions.matcher.js';
import { RESCREENABLE_STATUSES } from '../sanctions.rules.js';
import * as store from '../sanctions.store.js';
import type { CaseListChange, ListChangeKind, SanctionsListVersion } from '../sanctions.tables.js';
import { rememberedDismissals } from './dismissals.js';
import { openCase, resultColumns } from './screen.js';

/** The job that screens every eligible player against one list version's added and changed entities. */
export const LIST_CHANGE_SCREEN_JOB = 'sanctions.list_change_screen';
/**
 * A list change is screened against every player within 5 minutes of its version's acceptance: while the API is
 * busy the screening paces itself to finish within 4, a minute of margin (ADR 0019).
 */
const LIST_CHANGE_PACED_WITHIN_MS = 240_000;

/**
 * Records each list in force whose content the service has not accepted before: its comparison with the version it
 * replaces (entities added, changed, removed), the new entity digests, and, when any entity was added or changed, the
 * screening of every eligible player against those entities. Several processes load the same files: a lock per list
 * and the (list, digest) key record each version once. The first version of a list ever recorded is its baseline:
 * players were screened against it when they signed up, so nothing is screened.
 */
export async function recordListVersions(platform: Platform, served: ServedList[]): Promise<void> {
  const downloads = await downloadStates(
    platform.db,
    served.map((s) => listSourceId(s.publication.list)),
  );
  for (const list of served) {
    const source = platform.config.sanctionsSources.find((s) => s.list === list.publication.list);
    const download = downloads.get(listSourceId(list.publication.list));
    const fetchedAt =
      source && download?.fetched_at && list.publication.files[0] === source.file
        ? download.fetched_at
        : null;
    await platform.db.transaction().execute((tx) => recordOne(platform, tx, list, fetchedAt));
  }
}

async function recordOne(
  platform: Platform,
  tx: Transaction<DB>,
  served: ServedList,
  fetchedAt: Date | null,
): Promise<void> {
  const { publication, digests, digest } = served;
  const { list } = publication;
  await lists.lockList(tx, list);
  if (await lists.versionRecorded(tx, list, digest)) return;
  const previous = await lists.latestVersion(tx, list);
  if (previous && publication.published_on < previous.published_on) {
    platform.log.warn(
      { list, published_on: publication.published_on, recorded: previous.published_on },
      'sanctions list served is older than the version recorded; not recorded',
    );
    return;
  }
  const now = platform.clock.now();
  const comparison = compareVersions(previous ? await lists.listEntityDigests(tx, list) : new Map(), digests);
  const screenable = previous !== undefined && comparison.added.length + comparison.changed.length > 0;
  const versionId = newId('list_version');
  await lists.insertVersion(tx, {
    version_id: versionId,
    list,
    published_on: publication.published_on,
    format: publication.format,
    files: JSON.stringify(publication.files),
    digest,
    entities: digests.size,
    previous_version_id: previous?.version_id ?? null,
    accepted_at: now,
    fetched_at: fetchedAt,
    // A baseline compares with nothing: its entities are all "added" to the record, none to a player.
    added: previous ? comparison.added.length : 0,
    changed: comparison.changed.length,
    removed: comparison.removed.length,
    screening_started_at: screenable ? now : null,
    screening_total: screenable ? await lists.countEligibleScreens(tx) : null,
    screening_phase: screenable ? 'walk' : null,
  });
  const upserts = [...comparison.added, ...comparison.changed].map((id) => ({
    entity_id: id,
    digest: digests.get(id)!,
  }));
  await lists.applyListEntities(tx, list, upserts, comparison.removed);
  if (previous) {
    const entities = new Map(publication.entities.map((e) => [e.list_entity_id, e]));
    const row = (kind: ListChangeKind) => (id: string) => ({
      version_id: versionId,
      list,
      entity_id: id,
      kind,
      digest: kind === 'removed' ? null : digests.get(id)!,
      entity: kind === 'removed' ? null : JSON.stringify(entities.get(id)!),
    });
    await lists.insertChanges(tx, [
      ...comparison.added.map(row('added')),
      ...comparison.changed.map(row('changed')),
      ...comparison.removed.map(row('removed')),
    ]);
  }
  if (screenable) await scheduleJob(tx, { kind: LIST_CHANGE_SCREEN_JOB, subjectId: versionId, dueAt: now });
  platform.log.info(
    {
      list,
      version_id: versionId,
      published_on: publication.published_on,
      baseline: !previous,
      added: comparison.added.length,
      changed: comparison.changed.length,
      removed: comparison.removed.length,
    },
    'sanctions list version accepted',
  );
}

/** A version's added and changed entities as a matcher of their own (a small index), with their kind and digest. */
interface ChangeMatcher {
  matcher: SanctionsMatcher;
  changes: Map<string, { kind: 'added' | 'changed'; digest: string }>;
}

// The batches of one screening run back to back in one process: the small index is built once, not per batch. Kept
// per service (a test process runs many), for the few latest versions.
const changeMatcherCaches = new WeakMap<Platform, Map<string, ChangeMatcher>>();
const KEPT_CHANGE_MATCHERS = 4;
/** Distinct name tokens a change's index remembers the look-up of (about 20 MB at most). */
const REMEMBERED_TOKENS = 50_000;

async function changeMatcher(
  platform: Platform,
  tx: Transaction<DB>,
  version: SanctionsListVersion,
): Promise<ChangeMatcher> {
  let changeMatchers = changeMatcherCaches.get(platform);
  if (!changeMatchers) changeMatcherCaches.set(platform, (changeMatchers = new Map()));
  const kept = changeMatchers.get(version.version_id);
  if (kept) return kept;
  const rows = await lists.screenedChanges(tx, version.version_id);
  const entities = rows.map((row) => row.entity as SanctionsEntity);
  const index = buildSanctionsIndex(
    [
      {
        list: version.list as SanctionsEntity['list'],
        format: version.format,
        published_on: version.published_on,
        files: version.files,
        entities,
      },
    ],
    { rememberTokens: REMEMBERED_TOKENS },
  );
  const listVersion: ListVersion = {
    published_on: version.published_on,
    format: version.format,
    files: version.files,
    digest: version.digest,
  };
  const built: ChangeMatcher = {
    matcher: productionSanctionsMatcher(() => ({ index, list_versions: { [version.list]: listVersion } }), {
      threshold: platform.config.sanctionsHitThreshold,
    }),
    changes: new Map(
      rows.map((row) => [row.entity_id, { kind: row.kind as 'added' | 'changed', digest: row.digest! }]),
    ),
  };
  changeMatchers.set(version.version_id, built);
  if (changeMatchers.size > KEPT_CHANGE_MATCHERS) changeMatchers.delete(changeMatchers.keys().next().value!);
  return built;
}

/**
 * One batch of a version's screening, in the job's transaction: the next players by screen_id (the walk), then the
 * players screened after the version was accepted against another version of the list (the sweep: a process that
 * had not reloaded yet). A match a reviewer's dismissal does not cover holds the player with a list_update case
 * and sanctions.hit, as a signup hit does. Schedules the next batch until the sweep finds no more.
 */
export async function screenListChangeBatch(
  platform: Platform,
  tx: Transaction<DB>,
  versionId: string,
  now: Date,
): Promise<void> {
  const started = performance.now();
  const version = await lists.lockVersion(tx, versionId);
  if (!version || version.screening_finished_at || !version.screening_phase) return;
  const { matcher, changes } = await changeMatcher(platform, tx, version);
  const limit = platform.config.sanctionsListScreenBatchSize;
  const sweeping = version.screening_phase === 'sweep';
  const batch = await lists.eligibleScreensBatch(tx, {
    after: version.screening_cursor,
    limit,
    ...(sweeping
      ? { since: { checkedAfter: version.accepted_at, list: version.list, digest: version.digest } }
      : {}),
  });
  const results = [];
  for (const screen of batch) {
    const result = await matcher.screen(screen);
    if (result.matches.length > 0) results.push({ screen, result });
  }
  const remembered = await rememberedDismissals(
    tx,
    results.map((r) => r.screen.screen_id),
  );
  let newHits = 0;
  for (const { screen, result } of results) {
    for (const match of result.matches) {
      const change = changes.get(match.entity_id);
      if (change) match.entity_digest = change.digest;
    }
    const fresh = remembered(screen.screen_id, screen, result);
    if (fresh.matches.length === 0) continue;
    // Read again under lock: a decision or a re-screen since the batch was read wins.
    const current = await store.lockScreen(tx, screen.tenant_id, screen.user_id);
    if (!current || !RESCREENABLE_STATUSES.includes(current.status)) continue;
    const listChange: CaseListChange = {
      version_id: version.version_id,
      list: version.list,
      published_on: version.published_on,
      accepted_at: version.accepted_at.toISOString(),
      entities: fresh.matches.map((m) => ({
        entity_id: m.entity_id,
        change: changes.get(m.entity_id)!.kind,
      })),
    };
    const { list_versions: _versions, ...columns } = resultColumns(fresh, newId('case'));
    const held = await store.updateScreen(tx, current.screen_id, {
      ...columns,
      checked_at: now,
      updated_at: now,
    });
    await openCase(platform, tx, held, fresh, 'list_update', now, listChange);
    newHits++;
  }
  const ended = batch.length < limit;
  await lists.updateVersion(tx, versionId, {
    screened: version.screened + batch.length,
    new_hits: version.new_hits + newHits,
    screening_cursor: ended ? null : batch.at(-1)!.screen_id,
    screening_phase: ended && !sweeping ? 'sweep' : version.screening_phase,
    screening_finished_at: ended && sweeping ? now : null,
  });
  if (ended && sweeping) {
    platform.log.info(
      {
        version_id: versionId,
        list: version.list,
        screened: version.screened + batch.length,
        new_hits: version.new_hits + newHits,
        seconds: (now.getTime() - version.accepted_at.getTime()) / 1000,
      },
      'sanctions list change screened against every player',
    );
    return;
  }
  await scheduleJob(tx, {
    kind: LIST_CHANGE_SCREEN_JOB,
    subjectId: versionId,
    dueAt: nextBatchDue(platform.clock, platform.load.latest, now, {
      items: batch.length,
      ms: performance.now() - started,
      waiting: (version.screening_total ?? 0) - version.screened - batch.length,
      startedAt: version.accepted_at,
      deadlineMs: LIST_CHANGE_PACED_WITHIN_MS,
    }),
  });
}
