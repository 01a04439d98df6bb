import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock.js';
import type { Platform } from '../../platform/context.js';
import { ensureJobScheduled, scheduleJob } from '../../platform/scheduler.js';
import { anyLiveTenantCutOver, type VendorImplementations } from '../../platform/vendors.js';
import { registerListsFetch } from './lists/fetch.js';
import { SanctionsLists, type ListsLog } from './lists/sanctions-lists.js';
import { sandboxMatcher, type SanctionsMatcher } from './sanctions.matcher.js';
import { recordListVersions } from './service/list-changes.js';

export const LISTS_REFRESH_JOB = 'sanctions.lists_refresh';
const HOUR_MS = 3_600_000;
/** How often every process holding the lists checks the directory for changed files (wall clock). */
export const WATCH_INTERVAL_MS = 60_000;
const nextHour = (from: Date) => new Date(from.getTime() + HOUR_MS);

/**
 * The sanctions implementations of one service: the stub, and when SANCTIONS_DATA_DIR is set the production matcher
 * over the lists there, which load on first use (see installProductionSanctions). A matcher a test gives replaces it.
 */
export function sanctionsVendors(
  config: Config,
  clock: Clock,
  log: ListsLog,
  override: Partial<SanctionsVendors> = {},
): SanctionsVendors {
  if (!config.sanctionsDataDir || 'production' in override) return { sandbox: sandboxMatcher, ...override };
  const lists = new SanctionsLists({
    dir: config.sanctionsDataDir,
    clock,
    log,
    threshold: config.sanctionsHitThreshold,
    maxAgeDays: config.sanctionsMaxAgeDays,
  });
  const ready = () => {
    void lists.open().catch(() => {});
    return lists.current !== undefined;
  };
  return { sandbox: sandboxMatcher, production: lists.matcher, lists, ready, ...override };
}

/**
 * Wires the production sanctions matcher (see docs/sanctions.md, "What the spec leaves open"). The lists load on
 * first use by a cut-over live tenant, or now when one exists (except in a worker): a process whose tenants never
 * need them never holds the index. Each process holding them re-reads the directory when a file changes (checked every minute) and when
 * it runs the hourly refresh job. Returns the closer.
 */
export async function installProductionSanctions(platform: Platform): Promise<() => void> {
  const { config, log } = platform;
  platform.scheduler.register(LISTS_REFRESH_JOB, async (tx, _job, now) => {
    await scheduleJob(tx, { kind: LISTS_REFRESH_JOB, subjectId: 'all', dueAt: nextHour(now) });
    // After the job's transaction: a reload records new list versions in transactions of its own.
    const lists = platform.vendors.sanctions.lists;
    if (lists?.current) return async () => void (await lists.reload());
  });
  await registerListsFetch(platform, () => platform.vendors.sanctions.lists);
  if (!config.sanctionsDataDir) {
    log.warn(
      'SANCTIONS_DATA_DIR is not set: no production sanctions matcher; live tenants cut over for sanctions get 409 vendor_not_configured',
    );
    return () => {};
  }
  // A matcher given by a test has no lists to load or watch.
  const { lists } = platform.vendors.sanctions;
  if (!lists) return () => {};
  lists.onServed = (served) => recordListVersions(platform, served);
  await ensureJobScheduled(platform.db, {
    kind: LISTS_REFRESH_JOB,
    subjectId: 'all',
    dueAt: nextHour(platform.clock.now()),
  });
  const watch = setInterval(() => {
    lists
      .refreshIfChanged()
      .catch((error: unknown) => log.error({ err: error }, 'sanctions list check failed'));
  }, WATCH_INTERVAL_MS);
  watch.unref();
  // A worker answers no screening: it loads the lists only when a job needs them (a re-screen), not to hold them
  // idle. Screening players against a list change needs only the changed entities, from the database.
  if (config.processRole !== 'worker' && (await anyLiveTenantCutOver(platform.db, 'sanctions'))) {
    log.info({ dir: config.sanctionsDataDir }, 'sanctions lists loading now: a live tenant is cut over');
    void lists.open().catch(() => {});
  } else {
    log.info(
      { dir: config.sanctionsDataDir },
      'sanctions lists will load on first use by a cut-over live tenant',
    );
  }
  return () => clearInterval(watch);
}

export interface SanctionsVendors extends VendorImplementations<SanctionsMatcher> {
  /** The lists behind the production matcher (SANCTIONS_DATA_DIR); absent when unset or a test supplies the matcher. */
  lists?: SanctionsLists;
}

declare module '../../platform/vendors.js' {
  interface Vendors {
    sanctions: SanctionsVendors;
  }
}
