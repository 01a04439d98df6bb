import type { ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { addUtcDays, startOfUtcDay, utcDay } from '../../../platform/utc-calendar.js';
import type { ReportFormat } from '../reports.format.js';
import * as store from '../reports.store.js';
import type { ReportType } from '../reports.tables.js';

export const reportNotFound = (reportId: string) => new AppError('report_not_found', `No report ${reportId}`);

/** A version as the back office shows it (without its content). */
export function reportView(row: store.ReportSummary) {
  return {
    ...row,
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    high_water_mark: row.high_water_mark.toISOString(),
    compiled_at: row.compiled_at.toISOString(),
  };
}
export type ReportView = ReturnType<typeof reportView>;

export async function listReports(
  ctx: ServiceContext,
  filter: store.ReportFilter,
): Promise<{ reports: ReportView[] }> {
  return { reports: (await store.listReports(ctx.db, filter)).map(reportView) };
}

export async function getReport(ctx: ServiceContext, reportId: string): Promise<ReportView> {
  const row = await store.findSummary(ctx.db, reportId);
  if (!row) throw reportNotFound(reportId);
  return reportView(row);
}

/** The version's stored content, byte for byte: its SHA-256 is the recorded digest of that format. */
export async function reportContent(
  ctx: ServiceContext,
  reportId: string,
  format: ReportFormat,
): Promise<string> {
  const row = await store.findContent(ctx.db, reportId, format);
  if (!row) throw reportNotFound(reportId);
  return row.content;
}

/** Rows a day of the latest daily reports of one type over the `days` days before today (all tenants, or one). */
export async function dailyRowCounts(
  ctx: ServiceContext,
  filter: { tenantId?: string | undefined; type: ReportType; days: number },
) {
  const to = startOfUtcDay(ctx.clock.now());
  const from = addUtcDays(to, -filter.days);
  const found = new Map(
    (await store.dailyTotals(ctx.db, { tenantId: filter.tenantId, type: filter.type, from, to })).map((r) => [
      r.period,
      r.rows,
    ]),
  );
  return Array.from({ length: filter.days }, (_, i) => {
    const day = utcDay(addUtcDays(from, i));
    return { label: day, value: found.get(day) ?? 0 };
  });
}
