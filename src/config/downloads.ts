import fs from 'node:fs';
import type { Env } from './env-reader.js';

export const SANCTIONS_LISTS = ['ofac_sdn', 'ofac_consolidated', 'un', 'uk', 'eu'] as const;

/** Where one sanctions list is downloaded from, and the file (under SANCTIONS_DATA_DIR) it is kept in. */
export interface SanctionsSource {
  list: (typeof SANCTIONS_LISTS)[number];
  url: string;
  file: string;
}

/** The IP geolocation database's download: DB-IP Lite or MaxMind GeoLite2, monthly. */
export interface GeoipFetch {
  provider: 'dbip' | 'maxmind';
  /** May hold {yyyy} and {mm}: the month of the service clock when it runs. */
  url: string;
  /** HTTP Basic credentials (MaxMind's account id and licence key); never logged or stored. */
  authorization: string | undefined;
}

/** The download sources file's content: per sanctions list its URL and file, and the geolocation providers' URLs. */
export interface DownloadSources {
  sanctions: SanctionsSource[];
  geoip: Record<GeoipFetch['provider'], string>;
}

/** Reads the download sources file (COMPLIANCE_SOURCES_FILE). */
export function readSources(file: string, problems: string[]): DownloadSources {
  const empty = { sanctions: [], geoip: { dbip: '', maxmind: '' } };
  let parsed: {
    sanctions?: Record<string, { url?: unknown; file?: unknown }>;
    geoip?: Record<string, unknown>;
  };
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof parsed;
  } catch (error) {
    problems.push(`COMPLIANCE_SOURCES_FILE ${file} cannot be read: ${(error as Error).message}`);
    return empty;
  }
  const sanctions: SanctionsSource[] = [];
  for (const [list, source] of Object.entries(parsed.sanctions ?? {})) {
    const known = (SANCTIONS_LISTS as readonly string[]).includes(list);
    const { url, file: target } = source;
    if (!known || typeof url !== 'string' || typeof target !== 'string' || target.startsWith('/')) {
      problems.push(
        `${file}: sanctions.${list} must be one of ${SANCTIONS_LISTS.join(', ')} with a url and a relative file`,
      );
      continue;
    }
    sanctions.push({ list: list as SanctionsSource['list'], url, file: target });
  }
  const geoip = { dbip: String(parsed.geoip?.dbip ?? ''), maxmind: String(parsed.geoip?.maxmind ?? '') };
  return { sanctions, geoip };
}

/**
 * GEOIP_FETCH: which provider's database to download, if any. It keeps one file current, so GEOIP_DB_PATH must
 * name exactly one.
 */
export function geoipFetchOf(
  env: Env,
  sources: DownloadSources,
  geoipDbPath: string[] | undefined,
  problems: string[],
): GeoipFetch | undefined {
  const provider = env.GEOIP_FETCH || undefined;
  if (provider === undefined) return undefined;
  let geoipFetch: GeoipFetch | undefined;
  if (provider !== 'dbip' && provider !== 'maxmind') {
    problems.push(`GEOIP_FETCH must be dbip or maxmind (got "${provider}")`);
  } else {
    const account = env.MAXMIND_ACCOUNT_ID;
    const key = env.MAXMIND_LICENSE_KEY;
    if (provider === 'maxmind' && !(account && key)) {
      problems.push('GEOIP_FETCH=maxmind needs MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY');
    }
    geoipFetch = {
      provider,
      url: env.GEOIP_FETCH_URL || sources.geoip[provider],
      authorization:
        provider === 'maxmind' && account && key
          ? `Basic ${Buffer.from(`${account}:${key}`).toString('base64')}`
          : undefined,
    };
  }
  if (geoipDbPath?.length !== 1) {
    problems.push('GEOIP_FETCH needs GEOIP_DB_PATH to name the one .mmdb file it keeps current');
  }
  return geoipFetch;
}

/** GEOIP_FETCH_PROBE: an address a new database must place, and the country it must place it in. */
export function geoipProbeOf(env: Env, problems: string[]): { ip: string; country: string } {
  const probeRaw = env.GEOIP_FETCH_PROBE || '8.8.8.8=US';
  const [ip = '', country = ''] = probeRaw.split('=');
  if (!/^[A-Z]{2}$/.test(country) || ip === '') {
    problems.push(`GEOIP_FETCH_PROBE must be <ip>=<country code>, e.g. 8.8.8.8=US (got "${probeRaw}")`);
  }
  return { ip, country };
}
