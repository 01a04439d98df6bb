import { sql } from 'kysely';
import { lockSubject } from '../../platform/db/subject-lock.js';
import type { Executor } from '../../platform/db/database.js';
import type { Report, ReportSummary, ReportType } from './reports.tables.js';

export type { Report, ReportSummary, ReportTables } from './reports.tables.js';

const SUMMARY_COLUMNS = [
  'report_id',
  'tenant_id',
  'report_type',
  'period_kind',
  'period',
  'period_start',
  'period_end',
  'version',
  'version_kind',
  'reason',
  'requested_by',
  'generator_version',
  'high_water_mark',
  'compiled_at',
  'row_count',
  'daily_counts',
  'sha256_csv',
  'sha256_json',
] as const;

/** Serialises the versions of one report (tenant, type, period) until the transaction ends. */
export function lockReport(db: Executor, tenantId: string, type: ReportType, period: string) {
  return lockSubject(db, 'reports', tenantId, `${type}/${period}`);
}

export function latestVersion(
  db: Executor,
  tenantId: string,
  type: ReportType,
  period: string,
): Promise<ReportSummary | undefined> {
  return db
    .selectFrom('reports')
    .select(SUMMARY_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('report_type', '=', type)
    .where('period', '=', period)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertReport(db: Executor, row: Report): Promise<void> {
  await db
    .insertInto('reports')
    .values({ ...row, daily_counts: JSON.stringify(row.daily_counts) })
    .execute();
}

export function findSummary(db: Executor, reportId: string): Promise<ReportSummary | undefined> {
  return db
    .selectFrom('reports')
    .select(SUMMARY_COLUMNS)
    .where('report_id', '=', reportId)
    .executeTakeFirst();
}

export function findContent(db: Executor, reportId: string, format: 'csv' | 'json') {
  return db
    .selectFrom('reports')
    .select(['report_id', format === 'csv' ? 'content_csv as content' : 'content_json as content'])
    .where('report_id', '=', reportId)
    .executeTakeFirst();
}

/** What the staff filter report versions by; `before` is the last report_id of the previous page. */
export interface ReportFilter {
  tenant_id?: string | undefined;
  report_type?: ReportType | undefined;
  period?: string | undefined;
  period_kind?: 'day' | 'month' | undefined;
  before?: string | undefined;
  limit: number;
}

/** Newest first (report ids sort by creation), keyset on report_id. */
export function listReports(db: Executor, filter: ReportFilter): Promise<ReportSummary[]> {
  let query = db.selectFrom('reports').select(SUMMARY_COLUMNS);
  if (filter.tenant_id) query = query.where('tenant_id', '=', filter.tenant_id);
  if (filter.report_type) query = query.where('report_type', '=', filter.report_type);
  if (filter.period) query = query.where('period', '=', filter.period);
  if (filter.period_kind) query = query.where('period_kind', '=', filter.period_kind);
  if (filter.before) query = query.where('report_id', '<', filter.before);
  return query.orderBy('report_id', 'desc').limit(filter.limit).execute();
}

/**
 * Rows per day of the daily reports of one type from `from` (inclusive) to `to`, the latest version of each
 * (tenant, day), summed over tenants or for one: the console's chart.
 */
export async function dailyTotals(
  db: Executor,
  filter: { tenantId?: string | undefined; type: ReportType; from: Date; to: Date },
) {
  const tenant = filter.tenantId ? sql`and tenant_id = ${filter.tenantId}` : sql``;
  const { rows } = await sql<{ period: string; rows: string }>`
    select period, sum(row_count)::text as rows from (
      select distinct on (tenant_id, period) period, row_count from reports
      where report_type = ${filter.type} and period_kind = 'day'
        and period_start >= ${filter.from} and period_start < ${filter.to} ${tenant}
      order by tenant_id, period, version desc
    ) latest
    group by period order by period`.execute(db);
  return rows.map((r) => ({ period: r.period, rows: Number(r.rows) }));
}
