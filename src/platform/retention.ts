import type { Platform } from './context.js';
import { RETENTION_JOB } from './data-lifecycle.js';
import type { Executor } from './db/database.js';
import { lifecycleOf, RETAINED_TABLES, type RetainedTable } from './retention.rules.js';
import {
  allOverrides,
  deleteDue,
  pseudonymiseDue,
  duePredicate,
  tenantOwnedTables,
  unlinkDueVersions,
  type Periods,
} from './retention.store.js';
import { ensureJobScheduled, nextBatchDue, scheduleJob } from './scheduler.js';
import { DAY_MS } from './utc-calendar.js';

/** Rows one transaction deletes or pseudonymises in one table: short enough never to hold the hot paths. */
export const RETENTION_BATCH = 2_000;
/** Tables of wide rows take smaller batches: a report version holds its whole content. */
const BATCH_CAP: Partial<Record<RetainedTable, number>> = { reports: 500 };
/** A run's hold on its job: a process that dies mid-way is replaced after it. */
const LEASE_MS = 3_600_000;

/**
 * The one retention job (docs/data.md): it applies DATA_LIFECYCLE to every table kept for a time, daily on the
 * service clock, with each tenant's overrides. One job for the service (subject 'all'): the process that claims it
 * moves it an hour on (its lease) and, once that has committed, visits the tables in RETAINED_TABLES' order, each
 * in its own short transaction of at most `batch` rows. A full batch means more may be due: the job comes back at
 * that table after a rest paced by the API's load (nextBatchDue), rather than hold one huge statement; the last
 * table done, it is due again a day later.
 */
export async function registerDataRetention(
  platform: Platform,
  options: { batch?: number } = {},
): Promise<void> {
  const batch = options.batch ?? RETENTION_BATCH;
  platform.scheduler.register(RETENTION_JOB, async (tx, job, now) => {
    await scheduleJob(tx, {
      kind: RETENTION_JOB,
      subjectId: 'all',
      dueAt: new Date(now.getTime() + LEASE_MS),
      payload: job.payload,
    });
    const from = typeof job.payload.table === 'string' ? job.payload.table : undefined;
    return () => applyRetention(platform, from, batch);
  });
  await ensureJobScheduled(platform.db, {
    kind: RETENTION_JOB,
    subjectId: 'all',
    dueAt: new Date(platform.clock.now().getTime() + DAY_MS),
  });
}

/** One batch of one table: its due rows deleted, or pseudonymised as its lifecycle says; answers how many. */
async function applyTable(
  platform: Platform,
  tx: Executor,
  table: RetainedTable,
  now: Date,
  periods: Periods,
  limit: number,
): Promise<number> {
  const due = duePredicate(table, 't', now, periods);
  const lifecycle = lifecycleOf(table);
  if (lifecycle.end === 'pseudonymise') {
    return pseudonymiseDue(
      tx,
      table,
      lifecycle.pseudonymise ?? {},
      due,
      platform.secrets.pseudonymKey(),
      limit,
    );
  }
  if (table === 'sanctions_list_versions') await unlinkDueVersions(tx, due);
  return deleteDue(tx, table, due, limit);
}

/** One run: from `from` (where a full batch stopped the last run) to the last table. */
async function applyRetention(platform: Platform, from: string | undefined, batch: number): Promise<void> {
  const now = platform.clock.now();
  const periods: Periods = {
    overrides: await allOverrides(platform.db),
    deployment: new Map([['security_log', { days: platform.config.securityLogRetentionDays }]]),
    tenantOwned: await tenantOwnedTables(platform.db),
  };
  const start = Math.max(0, RETAINED_TABLES.indexOf(from as RetainedTable));
  for (const table of RETAINED_TABLES.slice(start)) {
    const limit = Math.min(batch, BATCH_CAP[table] ?? batch);
    const started = performance.now();
    let done: number;
    try {
      done = await platform.db
        .transaction()
        .execute((tx) => applyTable(platform, tx, table, now, periods, limit));
    } catch (error) {
      // One table's failure must not keep the others' data past its period: logged, retried at the next run.
      platform.log.error({ err: error, table }, 'retention of a table failed');
      continue;
    }
    if (done >= limit) {
      // More may be due: the next batch after a rest as long as the API's load asks (ADR 0019), at this table.
      const dueAt = nextBatchDue(platform.clock, platform.load.latest, now, {
        items: done,
        ms: performance.now() - started,
        waiting: done,
        startedAt: now,
        deadlineMs: DAY_MS,
      });
      await scheduleJob(platform.db, { kind: RETENTION_JOB, subjectId: 'all', dueAt, payload: { table } });
      return;
    }
  }
  await scheduleJob(platform.db, {
    kind: RETENTION_JOB,
    subjectId: 'all',
    dueAt: new Date(now.getTime() + DAY_MS),
  });
}
