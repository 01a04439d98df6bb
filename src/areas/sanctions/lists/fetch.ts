import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SanctionsSource } from '../../../config.js';
import type { Platform } from '../../../platform/context.js';
import type { DownloadSource } from '../../../platform/db/platform-tables.js';
import {
  refreshDownload,
  registerScheduledDownload,
  type DownloadReport,
  type Validation,
} from '../../../platform/downloads.js';
import { detectFormat } from './detect.js';
import type { SanctionsLists } from './sanctions-lists.js';

export const LISTS_FETCH_JOB = 'sanctions.lists_fetch';

export const listSourceId = (list: string) => `sanctions.${list}`;

/** The version a download is judged against: the one this process serves, else the one last accepted. */
function versionInForce(
  holder: SanctionsLists | undefined,
  list: string,
  previous: DownloadSource,
): { published_on: string; entities: number } | undefined {
  const served = holder?.served.get(list as SanctionsSource['list'])?.publication;
  if (served) return { published_on: served.published_on, entities: served.entities.length };
  if (previous.version && previous.entities !== null) {
    return { published_on: previous.version, entities: previous.entities };
  }
  return undefined;
}

/**
 * A downloaded publication is used only when it is one of this list's formats, parses whole, is not older than
 * the version in force, and has not lost more than the allowed share of its entities (a publisher's truncated or
 * emptied export would otherwise silently stop the service screening against most of the list).
 */
function validatePublication(
  source: SanctionsSource,
  holder: SanctionsLists | undefined,
  maxDropPercent: number,
): (file: string, previous: DownloadSource) => Promise<Validation> {
  return async (file, previous) => {
    const detected = detectFormat(source.file, await readFile(file));
    if (detected.kind !== 'publication' || detected.list !== source.list) {
      const what = detected.kind === 'skipped' ? detected.reason : `a file of the ${detected.kind} set`;
      return { ok: false, reason: `not a ${source.list} publication (${what})` };
    }
    let publication;
    try {
      publication = detected.parse();
    } catch (error) {
      return { ok: false, reason: `does not parse: ${(error as Error).message}` };
    }
    const entities = publication.entities.length;
    if (entities === 0) return { ok: false, reason: 'holds no entities' };
    const current = versionInForce(holder, source.list, previous);
    if (current && publication.published_on < current.published_on) {
      return {
        ok: false,
        reason: `published ${publication.published_on}, older than the version in force (${current.published_on})`,
      };
    }
    const floor = current ? Math.ceil(current.entities * (1 - maxDropPercent / 100)) : 0;
    if (current && entities < floor) {
      return {
        ok: false,
        reason: `holds ${entities} entities, more than ${maxDropPercent}% below the ${current.entities} of the version in force`,
      };
    }
    return { ok: true, file, version: publication.published_on, entities };
  };
}

/**
 * Downloads every configured list into SANCTIONS_DATA_DIR, one at a time, and reloads this process's lists when
 * one changed (other processes notice the changed files within a minute).
 */
export async function fetchSanctionsLists(
  platform: Platform,
  holder: SanctionsLists | undefined,
): Promise<DownloadReport[]> {
  const { config } = platform;
  const dir = config.sanctionsDataDir;
  if (!dir) return [];
  const limits = { timeoutMs: config.downloadTimeoutMs, maxBytes: config.downloadMaxBytes };
  const reports: DownloadReport[] = [];
  for (const source of config.sanctionsSources) {
    const target = { id: listSourceId(source.list), url: source.url, target: path.join(dir, source.file) };
    const validate = validatePublication(source, holder, config.sanctionsFetchMaxDropPercent);
    reports.push(await refreshDownload(platform, target, limits, validate));
  }
  if (holder?.current && reports.some((report) => report.outcome === 'updated')) await holder.reload();
  return reports;
}

/** The scheduled download of the lists (SANCTIONS_FETCH), every SANCTIONS_FETCH_INTERVAL_HOURS. */
export function registerListsFetch(platform: Platform, holder: () => SanctionsLists | undefined) {
  return registerScheduledDownload(platform, {
    kind: LISTS_FETCH_JOB,
    enabled: () => platform.config.sanctionsFetch,
    intervalHours: platform.config.sanctionsFetchIntervalHours,
    run: () => fetchSanctionsLists(platform, holder()),
  });
}
