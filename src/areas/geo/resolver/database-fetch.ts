import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar';
import type { Platform } from '../../../platform/context.js';
import type { DownloadSource } from '../../../platform/db/platform-tables.js';
import {
  refreshDownload,
  registerScheduledDownload,
  type DownloadReport,
  type Validation,
} from '../../../platform/downloads.js';
import { utcMonth } from '../../../platform/utc-calendar.js';
import { openCityDatabase } from './production.js';
import { locationOf } from './mmdb-record.js';

export const GEOIP_FETCH_JOB = 'geo.database_fetch';
export const GEOIP_SOURCE_ID = 'geoip';

/** DB-IP names each monthly file by its year and month: the URL of the service clock's month. */
export function monthlyUrl(template: string, now: Date): string {
  const [year, month] = utcMonth(now).split('-') as [string, string];
  return template.replaceAll('{yyyy}', year).replaceAll('{mm}', month);
}

async function head(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file);
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The database file inside a download, by content rather than by name: DB-IP publishes a gzipped .mmdb, MaxMind a
 * tar.gz holding one beside its licence files.
 */
async function unpack(download: string): Promise<string> {
  let file = download;
  const start = await head(file, 2);
  if (start[0] === 0x1f && start[1] === 0x8b) {
    await pipeline(createReadStream(file), createGunzip(), createWriteStream(`${download}.unzipped`));
    file = `${download}.unzipped`;
  }
  if ((await head(file, 262)).subarray(257, 262).toString('latin1') !== 'ustar') return file;
  const dir = `${download}.contents`;
  await mkdir(dir);
  await tar.x({ file, cwd: dir, filter: (entry) => entry.endsWith('.mmdb') });
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const found = entries.find((entry) => entry.isFile() && entry.name.endsWith('.mmdb'));
  if (!found) throw new Error('the archive holds no .mmdb file');
  return path.join(found.parentPath, found.name);
}

/** The build date of the database in use: the one last accepted, else the file's own, if there is one. */
async function buildInForce(previous: DownloadSource, target: string): Promise<string | undefined> {
  if (previous.version) return previous.version;
  try {
    return (await openCityDatabase(target)).reader.metadata.buildEpoch.toISOString();
  } catch {
    return undefined;
  }
}

/**
 * A new database is used only when it opens as a City-level database, places the probe address in the probe's
 * country, and was not built before the one in use.
 */
function validateDatabase(platform: Platform, target: string) {
  const probe = platform.config.geoipProbe;
  return async (download: string, previous: DownloadSource): Promise<Validation> => {
    let file: string;
    let reader;
    try {
      file = await unpack(download);
      reader = (await openCityDatabase(file)).reader;
    } catch (error) {
      return { ok: false, reason: `not a usable City database: ${(error as Error).message}` };
    }
    const placed = locationOf(reader.get(probe.ip))?.country_code ?? 'nowhere';
    if (placed !== probe.country) {
      return { ok: false, reason: `places ${probe.ip} in ${placed}, not ${probe.country}` };
    }
    const built = reader.metadata.buildEpoch.toISOString();
    const current = await buildInForce(previous, target);
    if (current && built < current) {
      return { ok: false, reason: `built ${built}, before the database in use (${current})` };
    }
    return { ok: true, file, version: built };
  };
}

/** Downloads the configured database into GEOIP_DB_PATH and has this process's resolver read it. */
export async function fetchGeoDatabase(platform: Platform): Promise<DownloadReport | undefined> {
  const { config } = platform;
  const fetch = config.geoipFetch;
  const target = config.geoipDbPath?.[0];
  if (!fetch || !target) return undefined;
  const report = await refreshDownload(
    platform,
    {
      id: GEOIP_SOURCE_ID,
      url: monthlyUrl(fetch.url, platform.clock.now()),
      authorization: fetch.authorization,
      target,
    },
    { timeoutMs: config.downloadTimeoutMs, maxBytes: config.downloadMaxBytes },
    validateDatabase(platform, target),
  );
  // Other processes see the new file through their own watch of it.
  if (report.outcome === 'updated') await platform.vendors.geo.production?.reload?.();
  return report;
}

/** The scheduled download of the database (GEOIP_FETCH), every GEOIP_FETCH_INTERVAL_HOURS. */
export function registerGeoDatabaseFetch(platform: Platform): Promise<void> {
  return registerScheduledDownload(platform, {
    kind: GEOIP_FETCH_JOB,
    enabled: () => platform.config.geoipFetch !== undefined,
    intervalHours: platform.config.geoipFetchIntervalHours,
    run: () => fetchGeoDatabase(platform),
  });
}
