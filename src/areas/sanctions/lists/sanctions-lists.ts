import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { DAY_MS, parseUtcDay } from '../../../platform/utc-calendar.js';
import type { SanctionsListId, SanctionsListPublication } from './entity.js';
import { isHidden, loadSanctionsDirectory, type LoadedSanctionsLists } from './loader.js';
import { entityDigest, publicationDigest } from './screening-content.js';
import { productionSanctionsMatcher, type ServedIndex } from '../matching/production-matcher.js';
import { buildSanctionsIndex } from '../matching/sanctions-index.js';
import type { ListVersion, SanctionsMatcher } from '../sanctions.matcher.js';

/** The slice of the service's logger the holder writes to. */
export interface ListsLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ServedList {
  publication: SanctionsListPublication;
  /** Per entity id, the digest of its screening-relevant content; and the publication's own digest. */
  digests: ReadonlyMap<string, string>;
  digest: string;
  /** Every name the list gives the entities: primary names, aliases and non-Latin-script names. */
  names: number;
  /** When this version was first loaded (service clock). */
  loaded_at: Date;
}

/** A problem with a list file or version, shown in the back office until a later reload is clean. */
export interface ListAlert {
  file: string;
  list?: string;
  format?: string;
  error: string;
  at: Date;
}

export interface ReloadOutcome {
  at: Date;
  superseded: LoadedSanctionsLists['superseded'];
  skipped: LoadedSanctionsLists['skipped'];
  alerts: ListAlert[];
}

export interface SanctionsListsOptions {
  dir: string;
  clock: Clock;
  log: ListsLog;
  threshold: number;
  /** A publication older than this is stale: warned about in the log and the back office. */
  maxAgeDays: number;
}

/** Told of the lists in force after every load: the service records each new version and what it changed. */
export type ListsServedHook = (served: ServedList[]) => Promise<void>;

const unavailable = () =>
  new AppError('vendor_unavailable', 'Sanctions screening is unavailable; retry with backoff');

/** Path, size and modification time of every file under dir: a change to any list file changes it. */
export async function directoryFingerprint(dir: string): Promise<string> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    const files = entries
      .filter((e) => e.isFile() && !isHidden(relative(dir, join(e.parentPath, e.name))))
      .map((e) => join(e.parentPath, e.name));
    const parts = await Promise.all(
      files.map(async (file) => {
        const { size, mtimeMs } = await stat(file);
        return `${file}\t${size}\t${mtimeMs}`;
      }),
    );
    return parts.sort().join('\n');
  } catch (error) {
    return `unreadable: ${(error as Error).message}`;
  }
}

/** Whole days from a publication date (YYYY-MM-DD, UTC) to now. */
export const ageInDays = (publishedOn: string, now: Date) =>
  Math.floor((now.getTime() - parseUtcDay(publishedOn).getTime()) / DAY_MS);

const sameVersion = (a: SanctionsListPublication, b: SanctionsListPublication) =>
  a.published_on === b.published_on && a.format === b.format && a.files.join() === b.files.join();

/**
 * The sanctions lists one process serves. Loads SANCTIONS_DATA_DIR, builds the index outside any request, and
 * swaps it in whole. Per list it keeps the version it serves: a newer file that fails to parse, or a newly loaded
 * publication older than the one served, leaves that list as it was and raises an alert. Reloads run one at a time.
 */
export class SanctionsLists {
  served = new Map<SanctionsListId, ServedList>();
  current: ServedIndex | undefined;
  builtAt: Date | undefined;
  lastReload: ReloadOutcome | undefined;
  /** Per list (or file, for files naming no list): the latest alert, kept after the problem is gone. */
  readonly lastAlert = new Map<string, ListAlert>();
  readonly matcher: SanctionsMatcher;
  /** Set by the service: records the versions in force after each load (a failure is logged, and retried then). */
  onServed: ListsServedHook | undefined;
  private fingerprint: string | undefined;
  private opening: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly options: SanctionsListsOptions) {
    const screener = productionSanctionsMatcher(() => this.current!, { threshold: options.threshold });
    this.matcher = {
      kind: 'production',
      prepare: () => this.open(),
      screen: async (subject) => {
        await this.open();
        // Read with the index it screens against: a swap cannot come between the two (no await).
        const served = this.served;
        const result = await screener.screen(subject);
        for (const match of result.matches) {
          const digest = served.get(match.list as SanctionsListId)?.digests.get(match.entity_id);
          if (digest) match.entity_digest = digest;
        }
        return result;
      },
    };
  }

  /** Loads the lists unless served already (the first caller waits for the build; later ones do not). */
  open(): Promise<void> {
    if (this.current) return Promise.resolve();
    this.opening ??= this.reload().then(() => {
      this.opening = undefined;
      if (!this.current) throw unavailable();
    });
    return this.opening.catch((error: unknown) => {
      this.opening = undefined;
      throw error instanceof AppError ? error : unavailable();
    });
  }

  /** Re-reads the directory now and swaps in what changed. */
  reload(): Promise<ReloadOutcome> {
    const run = this.queue.then(() => this.load());
    this.queue = run.catch(() => {});
    return run;
  }

  /** Reloads when a file under the directory changed since the last load (cheap: a stat of each file). */
  async refreshIfChanged(): Promise<boolean> {
    if (!this.current) return false;
    if ((await directoryFingerprint(this.options.dir)) === this.fingerprint) return false;
    await this.reload();
    return true;
  }

  private async load(): Promise<ReloadOutcome> {
    const { dir, clock, log } = this.options;
    const fingerprint = await directoryFingerprint(dir);
    const loaded = await loadSanctionsDirectory(dir, {
      log: (message, details) => log.info(details ?? {}, message),
    });
    const at = clock.now();
    const alerts: ListAlert[] = loaded.failures.map((failure) => ({ ...failure, at }));
    const next = new Map(this.served);
    const loadedLists = new Set<string>();
    for (const publication of loaded.publications) {
      loadedLists.add(publication.list);
      const previous = this.served.get(publication.list);
      if (previous && publication.published_on < previous.publication.published_on) {
        alerts.push({
          file: publication.files[0] ?? dir,
          list: publication.list,
          format: publication.format,
          error: `the newest publication that loads (${publication.published_on}) is older than the one served (${previous.publication.published_on}); keeping the version served`,
          at,
        });
      } else {
        const digests = new Map(
          publication.entities.map((entity) => [entity.list_entity_id, entityDigest(entity)]),
        );
        const digest = publicationDigest(digests);
        // A republication under the same name and date with other content is a new version too.
        if (!previous || previous.digest !== digest || !sameVersion(previous.publication, publication)) {
          const names = publication.entities.reduce((sum, entity) => sum + entity.names.length, 0);
          next.set(publication.list, { publication, digests, digest, names, loaded_at: at });
        }
      }
    }
    // A list gone from the directory is still screened against: losing a list silently is worse than an old one.
    for (const [list, kept] of this.served) {
      if (loadedLists.has(list) || alerts.some((alert) => alert.list === list)) continue;
      const error = 'no publication of this list found in the directory any more; keeping the version served';
      alerts.push({ file: kept.publication.files[0] ?? dir, list, error, at });
    }
    const alerted = new Set<string>();
    for (const alert of alerts) {
      // The first alert of a reload per list is its cause (a parse failure before the older version it left).
      const key = alert.list ?? alert.file;
      if (!alerted.has(key)) this.lastAlert.set(key, alert);
      alerted.add(key);
      log.error({ ...alert }, 'sanctions list not updated; the previous version stays in force');
    }
    const changed = [...next.values()].some((served) => this.served.get(served.publication.list) !== served);
    if (changed || !this.current) await this.swapIn(next);
    this.fingerprint = fingerprint;
    for (const { publication } of this.served.values()) {
      const age = ageInDays(publication.published_on, at);
      if (age > this.options.maxAgeDays) {
        const { list, published_on } = publication;
        log.warn(
          { list, published_on, age_days: age },
          'sanctions list is stale: fetch its current publication',
        );
      }
    }
    this.lastReload = { at, superseded: loaded.superseded, skipped: loaded.skipped, alerts };
    if (this.onServed && this.served.size > 0) {
      await this.onServed([...this.served.values()]).catch((error: unknown) =>
        log.error({ err: error }, 'sanctions list versions not recorded; the next load records them'),
      );
    }
    return this.lastReload;
  }

  private async swapIn(next: Map<SanctionsListId, ServedList>): Promise<void> {
    if (next.size === 0) return;
    // Let requests queued behind the (seconds long) parse run before the build takes the thread again.
    await yieldToEventLoop();
    const started = performance.now();
    const publications = [...next.values()].map((served) => served.publication);
    const index = buildSanctionsIndex(publications);
    const list_versions: Record<string, ListVersion> = {};
    for (const { publication, digest } of next.values()) {
      const { list, published_on, format, files } = publication;
      list_versions[list] = { published_on, format, files, digest };
    }
    // One assignment: a screening reads `current` once, so it sees the old index or the new one, never a mix.
    this.current = { index, list_versions };
    this.served = next;
    this.builtAt = this.options.clock.now();
    this.options.log.info(
      { lists: list_versions, ...index.stats, build_ms: Math.round(performance.now() - started) },
      'sanctions index built and in force',
    );
  }
}
