import type { Platform } from '../../platform/context.js';
import type { DownloadSource } from '../../platform/db/platform-tables.js';
import { downloadStates } from '../../platform/downloads.js';
import { ageSeconds, readOncePerScrape, type GaugeSeries } from '../../platform/metrics.js';
import { listSourceId } from './lists/fetch.js';
import { listsInForceDates, screeningBacklog } from './lists/lists.store.js';

/** A check that left the file in force current: a new version accepted, or the source unchanged. */
const CURRENT_AFTER: ReadonlySet<DownloadSource['outcome']> = new Set([
  'updated',
  'unchanged',
  'not_modified',
]);

/**
 * When the list was last fetched: its source's latest check if that check found the file in force current, else
 * when the file in force was downloaded. Undefined for a list the service does not download (files put in place).
 */
function lastFetched(source: DownloadSource | undefined, versionFetchedAt: Date | null): Date | undefined {
  if (source?.checked_at && CURRENT_AFTER.has(source.outcome)) return new Date(source.checked_at);
  if (source?.fetched_at) return new Date(source.fetched_at);
  return versionFetchedAt ? new Date(versionFetchedAt) : undefined;
}

/**
 * Each list's age since publication and since it was last fetched, against the age its schedule allows
 * (SANCTIONS_MAX_AGE_DAYS), and the continuous-screening backlog: read at each scrape.
 */
export function registerSanctionsMetrics(platform: Platform): void {
  const { db, clock, config, metrics } = platform;
  const lists = readOncePerScrape(async () => {
    const versions = await listsInForceDates(db);
    const sources = await downloadStates(
      db,
      versions.map((v) => listSourceId(v.list)),
    );
    const now = clock.now();
    return versions.map((v) => ({
      list: v.list,
      published: ageSeconds(now, new Date(`${v.published_on}T00:00:00Z`)),
      fetchedAt: lastFetched(sources.get(listSourceId(v.list)), v.fetched_at),
      now,
    }));
  });
  const byList = { labelNames: ['list'] };
  metrics.gauge(
    'compliance_sanctions_list_published_age_seconds',
    'Seconds since the publication of each sanctions list in force',
    async () => (await lists()).map(({ list, published }) => ({ labels: { list }, value: published })),
    byList,
  );
  metrics.gauge(
    'compliance_sanctions_list_fetched_age_seconds',
    'Seconds since each sanctions list the service downloads was last fetched (its source found current)',
    async () =>
      (await lists()).flatMap(({ list, fetchedAt, now }): GaugeSeries[] =>
        fetchedAt ? [{ labels: { list }, value: ageSeconds(now, fetchedAt) }] : [],
      ),
    byList,
  );
  metrics.gauge(
    'compliance_sanctions_list_max_age_seconds',
    'The age since publication past which a sanctions list is stale (SANCTIONS_MAX_AGE_DAYS)',
    async () =>
      (await lists()).map(({ list }) => ({ labels: { list }, value: config.sanctionsMaxAgeDays * 86_400 })),
    byList,
  );
  metrics.gauge(
    'compliance_sanctions_screening_backlog',
    'Players still to be screened by a list-change screening or a quarterly re-screen under way (0 when none runs)',
    () => screeningBacklog(db),
  );
}
