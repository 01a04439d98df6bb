import type { Platform } from '../../platform/context.js';
import { ensureJobScheduled, scheduleJob } from '../../platform/scheduler.js';
import { anyLiveTenantCutOver } from '../../platform/vendors.js';
import { registerListsFetch } from './sanctions.lists.fetch.js';
import { SanctionsLists } from './sanctions.lists.js';
import { sanctionsMatchers } from './sanctions.matcher.js';

/** The lists this process serves, when SANCTIONS_DATA_DIR is set: process-wide, like the matcher it backs. */
export const productionLists: { holder?: SanctionsLists } = {};

export const LISTS_REFRESH_JOB = 'sanctions.lists_refresh';
const HOUR_MS = 3_600_000;
/** How often every process holding the lists checks the directory for changed files (wall clock). */
export const WATCH_INTERVAL_MS = 60_000;
const nextHour = (from: Date) => new Date(from.getTime() + HOUR_MS);

/**
 * Wires the production sanctions matcher (see docs/sanctions.md, "What the spec leaves open"). The lists load on
 * first use by a cut-over live tenant, or now when one exists: a process whose tenants never need them never holds
 * the index. Each process holding them re-reads the directory when a file changes (checked every minute) and when
 * it runs the hourly refresh job. Returns the closer.
 */
export async function installProductionSanctions(platform: Platform): Promise<() => void> {
  const { config, log } = platform;
  platform.scheduler.register(LISTS_REFRESH_JOB, async (tx, _job, now) => {
    const holder = productionLists.holder;
    if (holder?.current) await holder.reload();
    await scheduleJob(tx, { kind: LISTS_REFRESH_JOB, subjectId: 'all', dueAt: nextHour(now) });
  });
  await registerListsFetch(platform, () => productionLists.holder);
  if (!config.sanctionsDataDir) {
    log.warn(
      'SANCTIONS_DATA_DIR is not set: no production sanctions matcher; live tenants cut over for sanctions get 409 vendor_not_configured',
    );
    return () => {};
  }
  // A matcher set already (by a test) is left alone, as the geo resolver does.
  if (sanctionsMatchers.production) return () => {};
  const holder = new SanctionsLists({
    dir: config.sanctionsDataDir,
    clock: platform.clock,
    log,
    threshold: config.sanctionsHitThreshold,
    maxAgeDays: config.sanctionsMaxAgeDays,
  });
  productionLists.holder = holder;
  sanctionsMatchers.production = holder.matcher;
  await ensureJobScheduled(platform.db, {
    kind: LISTS_REFRESH_JOB,
    subjectId: 'all',
    dueAt: nextHour(platform.clock.now()),
  });
  const watch = setInterval(() => {
    holder
      .refreshIfChanged()
      .catch((error: unknown) => log.error({ err: error }, 'sanctions list check failed'));
  }, WATCH_INTERVAL_MS);
  watch.unref();
  if (await anyLiveTenantCutOver(platform.db, 'sanctions')) {
    log.info({ dir: config.sanctionsDataDir }, 'sanctions lists loading now: a live tenant is cut over');
    void holder.open().catch(() => {});
  } else {
    log.info(
      { dir: config.sanctionsDataDir },
      'sanctions lists will load on first use by a cut-over live tenant',
    );
  }
  return () => {
    clearInterval(watch);
    if (productionLists.holder === holder) delete productionLists.holder;
    if (sanctionsMatchers.production === holder.matcher) delete sanctionsMatchers.production;
  };
}
