import type { Config } from '../../../config.js';
import type { DownloadSource } from '../../../platform/db/platform-tables.js';
import { downloadReport } from '../../../platform/downloads.js';
import { listSourceId } from './fetch.js';
import { ageInDays, type ListAlert, type SanctionsLists } from './sanctions-lists.js';
import type { ListsStatus } from './lists.schemas.js';
import type { VersionView } from '../service/list-versions.js';

const alertView = (alert: ListAlert) => ({ ...alert, at: alert.at.toISOString() });

/** The back-office lists view of one process's holder (or of a deployment with no lists configured). */
export function listsStatus(
  holder: SanctionsLists | undefined,
  config: Pick<
    Config,
    | 'sanctionsMaxAgeDays'
    | 'sanctionsHitThreshold'
    | 'sanctionsFetch'
    | 'sanctionsSources'
    | 'sanctionsDataDir'
  >,
  downloads: Map<string, DownloadSource>,
  changes: Map<string, VersionView>,
  now: Date,
): ListsStatus {
  const sources = config.sanctionsDataDir
    ? config.sanctionsSources.map(({ list, url, file }) => {
        const state = downloads.get(listSourceId(list));
        return {
          ...(state
            ? downloadReport(state)
            : {
                source: listSourceId(list),
                url,
                outcome: null,
                error: null,
                version: null,
                entities: null,
                checked_at: null,
                fetched_at: null,
              }),
          list,
          file,
        };
      })
    : [];
  const base = {
    max_age_days: config.sanctionsMaxAgeDays,
    hit_threshold: config.sanctionsHitThreshold,
    fetch_enabled: config.sanctionsFetch,
    sources,
  };
  if (!holder) {
    return {
      ...base,
      data_dir: null,
      available: false,
      index_built_at: null,
      last_reload_at: null,
      warnings: [
        'SANCTIONS_DATA_DIR is not set: live tenants cut over for sanctions get 409 vendor_not_configured',
      ],
      lists: [],
      superseded: [],
      skipped: [],
      failures: [],
    };
  }
  const reload = holder.lastReload;
  const failures = (reload?.alerts ?? []).map(alertView);
  const lists = [...holder.served.values()].map(({ publication, names, loaded_at }) => {
    const { list, format, published_on, files, entities } = publication;
    const age = ageInDays(published_on, now);
    const stale = age > config.sanctionsMaxAgeDays;
    const warnings = failures
      .filter((failure) => failure.list === list)
      .map((failure) => `The latest reload did not update this list (${failure.file}: ${failure.error})`);
    if (stale) {
      warnings.unshift(
        `Published ${published_on}, ${age} days ago: older than ${config.sanctionsMaxAgeDays} days; fetch it (compliance lists fetch) or put the current publication in the lists directory`,
      );
    }
    const lastFailure = holder.lastAlert.get(list);
    const fetched = sources.find((source) => source.list === list && files[0] === source.file);
    return {
      list,
      format,
      published_on,
      files,
      entities: entities.length,
      names,
      loaded_at: loaded_at.toISOString(),
      fetched_at: fetched?.fetched_at ?? null,
      age_days: age,
      stale,
      warnings,
      last_failure: lastFailure ? alertView(lastFailure) : null,
      last_change: changes.get(list) ?? null,
    };
  });
  const warnings: string[] = [];
  if (!holder.current) warnings.push('No list is loaded: live tenants cut over for sanctions get 503');
  if (lists.some((list) => list.stale)) warnings.push('At least one list is stale');
  if (failures.length > 0) warnings.push('The latest reload left at least one list at its previous version');
  return {
    ...base,
    data_dir: holder.options.dir,
    available: holder.current !== undefined,
    index_built_at: holder.builtAt?.toISOString() ?? null,
    last_reload_at: reload?.at.toISOString() ?? null,
    warnings,
    lists: lists.sort((a, b) => a.list.localeCompare(b.list)),
    superseded: reload?.superseded ?? [],
    skipped: reload?.skipped ?? [],
    failures,
  };
}
