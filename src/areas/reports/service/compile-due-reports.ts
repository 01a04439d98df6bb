import type { ServiceContext } from '../../../platform/context.js';
import { addUtcDays, periodBounds, startOfUtcDay, utcDay, utcMonth } from '../../../platform/utc-calendar.js';
import { LATE_MARGIN_SECONDS, MAX_DAYS_PER_RUN } from '../reports.rules.js';
import { allTenants, lateDays } from '../reports.sources.store.js';
import { REPORT_PERIOD_KINDS, REPORT_TYPES } from '../reports.tables.js';
import { compileReport } from './compile-report.js';

export interface CompileProgress {
  /** The first UTC day (YYYY-MM-DD) not compiled yet. */
  next_day: string;
  /** Events received after this (ISO time) have not been looked at for late data yet. */
  late_since: string;
}

/**
 * One run of the scheduled compilation: the daily reports of every closed day from `next_day` (at most
 * MAX_DAYS_PER_RUN of them, oldest first) for every tenant, the monthly reports of every month such a day closes,
 * then amendments for closed periods that received late data. Returns the progress to store with the next run, and
 * whether days are still waiting (the caller comes back at once rather than tomorrow).
 */
export async function compileDueReports(
  ctx: ServiceContext,
  progress: CompileProgress,
): Promise<{ progress: CompileProgress; behind: boolean }> {
  const now = ctx.clock.now();
  const today = startOfUtcDay(now);
  let day = periodBounds(progress.next_day)!.start;
  for (let done = 0; day < today && done < MAX_DAYS_PER_RUN; done++) {
    const end = addUtcDays(day, 1);
    const tenants = await allTenants(ctx.db);
    const closesMonth = utcMonth(end) !== utcMonth(day);
    for (const tenant of tenants) {
      for (const type of REPORT_TYPES) {
        const target = { tenantId: tenant.tenant_id, environment: tenant.environment, type };
        const kinds = REPORT_PERIOD_KINDS[type];
        if (kinds.includes('day')) {
          await compileReport(ctx, { ...target, period: utcDay(day) }, { kind: 'original' });
        }
        if (closesMonth && kinds.includes('month'))
          await compileReport(ctx, { ...target, period: utcMonth(day) }, { kind: 'original' });
      }
    }
    day = end;
  }
  await amendLatePeriods(ctx, new Date(Date.parse(progress.late_since) - LATE_MARGIN_SECONDS * 1000), day);
  return { progress: { next_day: utcDay(day), late_since: now.toISOString() }, behind: day < today };
}

/**
 * Late data: a money event received since the last run whose occurred_at falls in a day already compiled. The day's
 * and its month's threshold reports get an amendment when their content changed (compileReport compares digests).
 * The self-limitation report's sources are all stamped on receipt, so none of its data can arrive late.
 */
async function amendLatePeriods(ctx: ServiceContext, since: Date, compiledBefore: Date): Promise<void> {
  const candidates = await lateDays(ctx.db, since, compiledBefore);
  const months = new Set<string>();
  const tenants = new Map((await allTenants(ctx.db)).map((t) => [t.tenant_id, t]));
  for (const { tenant_id: tenantId, day } of candidates) {
    const tenant = tenants.get(tenantId);
    if (!tenant) continue;
    const target = { tenantId, environment: tenant.environment, type: 'threshold' as const };
    await compileReport(ctx, { ...target, period: day }, { kind: 'amendment' });
    const month = day.slice(0, 7);
    // Only a month already compiled (closed) can be amended; the current month's report is still to come.
    if (periodBounds(month)!.end <= compiledBefore && !months.has(`${tenantId}|${month}`)) {
      months.add(`${tenantId}|${month}`);
      await compileReport(ctx, { ...target, period: month }, { kind: 'amendment' });
    }
  }
}
