/**
 * `node --expose-gc --import tsx bench/reports.ts [--quick] [--keep-db]`: compiling the regulatory reports with real
 * volumes. Seeds seedVolume's data (1,000,000 AML events and 1,000,000 deposits over 90 days, 3 tenants; --quick:
 * 60,000) through the benchmark's own start-up (PostgreSQL on a fresh database of DATABASE_URL's server, else
 * PGlite), stops the service, then in this process, on the seeded database and the system clock:
 * - day: one scheduled run for yesterday (every tenant's threshold and self-limitation reports, and the look for
 *   late data), as the 00:15 job does;
 * - month: the previous calendar month's two reports for every tenant.
 * Each phase is timed (wall clock) and this process's resident memory sampled every 20 ms: the growth is the peak
 * less the level before the phase (after a forced GC). Targets: day < 10 s, month < 60 s, growth < 100 MB. Writes
 * bench/results/reports-<time>-<kind>[-quick].json. See docs/performance.md.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileDueReports, compileReport } from '../src/areas/reports/index.js';
import { REPORT_TYPES } from '../src/areas/reports/reports.tables.js';
import { systemClock } from '../src/platform/clock.js';
import type { ServiceContext } from '../src/platform/context.js';
import { openDatabase } from '../src/platform/db/database.js';
import { addUtcDays, startOfUtcDay, utcDay, utcMonth } from '../src/platform/utc-calendar.js';
import { round } from './lib/stats.js';
import { postgresServer } from './run/report.js';
import { keepDatabase, log, quick, scale } from './run/options.js';
import { preparedService } from './run/service.js';

const TARGETS = { day: 10, month: 60, rss_mb: 100 };
const MB = 1024 * 1024;

interface Phase {
  phase: string;
  period: string;
  seconds: number;
  rss_before_mb: number;
  rss_peak_mb: number;
  rss_growth_mb: number;
  reports: number;
  rows: number;
  verdict: string;
}

/** Runs `work`, timing it and sampling this process's RSS; the baseline is taken after a forced collection. */
async function measured(
  phase: string,
  period: string,
  target: number,
  work: () => Promise<{ reports: number; rows: number }>,
): Promise<Phase> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const { reports, rows } = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const growth = (peak - before) / MB;
  const ok = seconds < target && growth < TARGETS.rss_mb;
  return {
    phase,
    period,
    seconds: round(seconds, 2),
    rss_before_mb: round(before / MB, 1),
    rss_peak_mb: round(peak / MB, 1),
    rss_growth_mb: round(growth, 1),
    reports,
    rows,
    verdict: ok ? 'ok' : `FAIL (target < ${target} s and < ${TARGETS.rss_mb} MB)`,
  };
}

async function main() {
  process.env.COMPLIANCE_SECRETS_KEY ??= randomBytes(32).toString('base64');
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const { database, service, context } = await preparedService(kind, true);
  // PGlite allows one process: the service stops, and this process opens the database to compile.
  await service.stop();
  const { db, close } = await openDatabase({ url: database.url, dataDir: database.dataDir });
  const ctx: ServiceContext = { actor: 'service', tenantId: null, requestId: null, db, clock: systemClock };
  const phases: Phase[] = [];
  try {
    const now = new Date();
    const yesterday = utcDay(addUtcDays(startOfUtcDay(now), -1));
    const countRows = async (since: Date) => {
      const rows = await db
        .selectFrom('reports')
        .select((eb) => [eb.fn.countAll<number>().as('reports'), eb.fn.sum<number>('row_count').as('rows')])
        .where('compiled_at', '>=', since)
        .executeTakeFirstOrThrow();
      return { reports: Number(rows.reports), rows: Number(rows.rows ?? 0) };
    };
    log(`== day: the 00:15 run for ${yesterday}, ${context.tenants.length} tenants`);
    const dayStarted = new Date();
    phases.push(
      await measured('day', yesterday, TARGETS.day, async () => {
        await compileDueReports(ctx, { next_day: yesterday, late_since: addUtcDays(now, -1).toISOString() });
        return countRows(dayStarted);
      }),
    );
    const month = utcMonth(addUtcDays(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), -1));
    log(`== month: ${month}, ${context.tenants.length} tenants`);
    const monthStarted = new Date();
    phases.push(
      await measured('month', month, TARGETS.month, async () => {
        for (const tenant of context.tenants) {
          for (const type of REPORT_TYPES) {
            await compileReport(
              ctx,
              { tenantId: tenant.tenant_id, environment: 'sandbox', type, period: month },
              { kind: 'original' },
            );
          }
        }
        return countRows(monthStarted);
      }),
    );
  } finally {
    await close();
    if (!keepDatabase) await database.drop();
  }

  log('\nphase  period      seconds  RSS before  RSS peak  growth MB  reports  rows    verdict');
  for (const p of phases) {
    log(
      `${p.phase.padEnd(6)} ${p.period.padEnd(11)} ${String(p.seconds).padEnd(8)} ${String(p.rss_before_mb).padEnd(11)} ${String(p.rss_peak_mb).padEnd(9)} ${String(p.rss_growth_mb).padEnd(10)} ${String(p.reports).padEnd(8)} ${String(p.rows).padEnd(7)} ${p.verdict}`,
    );
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join('bench', 'results', `reports-${stamp}-${kind}${quick ? '-quick' : ''}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memory_gb: round(os.totalmem() / 1024 ** 3, 1),
  };
  fs.writeFileSync(
    file,
    JSON.stringify(
      { kind, scale, machine, postgres: await postgresServer(), targets: TARGETS, phases },
      null,
      2,
    ) + '\n',
  );
  log(`results: ${file}`);
  process.exitCode = phases.some((p) => p.verdict !== 'ok') ? 1 : 0;
}

await main();
