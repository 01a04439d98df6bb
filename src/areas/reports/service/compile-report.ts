import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import type { Environment } from '../../../platform/db/platform-tables.js';
import { newId } from '../../../platform/ids.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { periodBounds } from '../../../platform/utc-calendar.js';
import { saferGamblingRows } from '../compile/safer-gambling.js';
import { selfLimitationRows } from '../compile/self-limitation.js';
import { thresholdRows } from '../compile/threshold.js';
import { ReportWriter, type CompiledContent } from '../reports.format.js';
import {
  GENERATOR_VERSION,
  SAFER_GAMBLING_COLUMNS,
  SELF_LIMITATION_COLUMNS,
  THRESHOLD_COLUMNS,
  THRESHOLD_USD_CENTS,
  VERSION_AUDIT_ACTIONS,
} from '../reports.rules.js';
import type { Executor } from '../../../platform/db/database.js';
import type { Period } from '../reports.sources.store.js';
import * as store from '../reports.store.js';
import type { ReportType, VersionKind } from '../reports.tables.js';

export interface ReportTarget {
  tenantId: string;
  environment: Environment;
  type: ReportType;
  /** YYYY-MM-DD or YYYY-MM. */
  period: string;
}

/** Compiles the report's content from the sources, reading a page at a time; `hwm` bounds what is included. */
export async function compileContent(
  db: Executor,
  target: ReportTarget,
  hwm: Date,
): Promise<CompiledContent> {
  const bounds = periodBounds(target.period)!;
  const period: Period = { tenantId: target.tenantId, start: bounds.start, end: bounds.end, hwm };
  const header = {
    tenant_id: target.tenantId,
    report_type: target.type,
    period: target.period,
    period_start: bounds.start.toISOString(),
    period_end: bounds.end.toISOString(),
    generator_version: GENERATOR_VERSION,
  };
  if (target.type === 'threshold') {
    const writer = new ReportWriter(
      { ...header, threshold_usd_cents: THRESHOLD_USD_CENTS },
      THRESHOLD_COLUMNS,
      false,
    );
    const totals = new Map<string, { transactions: number; usd_cents: number; players: Set<string> }>();
    for await (const row of thresholdRows(db, period)) {
      writer.row(row, row.utc_date as string);
      const key = row.event_type as string;
      const total = totals.get(key) ?? { transactions: 0, usd_cents: 0, players: new Set<string>() };
      total.transactions++;
      total.usd_cents += row.usd_cents as number;
      total.players.add(row.user_id as string);
      totals.set(key, total);
    }
    for (const eventType of ['deposit', 'withdrawal']) {
      const total = totals.get(eventType);
      writer.total({
        event_type: eventType,
        transactions: total?.transactions ?? 0,
        players: total?.players.size ?? 0,
        usd_cents: total?.usd_cents ?? 0,
      });
    }
    return writer.finish();
  }
  if (target.type === 'safer_gambling') {
    const writer = new ReportWriter(header, SAFER_GAMBLING_COLUMNS, true);
    for await (const item of saferGamblingRows(db, period)) {
      if (item.total) writer.total(item.record);
      else writer.row(item.record, item.day ?? null);
    }
    return writer.finish();
  }
  const writer = new ReportWriter(header, SELF_LIMITATION_COLUMNS, true);
  for await (const item of selfLimitationRows(db, period, target.environment)) {
    if (item.total) writer.total(item.record);
    else writer.row(item.record, (item.record.occurred_at as string | null)?.slice(0, 10) ?? null);
  }
  return writer.finish();
}

/**
 * Compiles and stores a version of one report. An original is made once per period (a second scheduled run does
 * nothing); an amendment only when late data changed the content (same digest as the latest version: nothing
 * stored); a regeneration always (staff asked, with a reason). Earlier versions are never touched.
 */
export async function compileReport(
  ctx: ServiceContext,
  target: ReportTarget,
  version: { kind: VersionKind; reason?: string | null },
): Promise<store.ReportSummary | null> {
  return withTransaction(forTenant(ctx, target.tenantId), async (tx, ctx) => {
    await store.lockReport(tx, target.tenantId, target.type, target.period);
    const latest = await store.latestVersion(tx, target.tenantId, target.type, target.period);
    if (version.kind === 'original' && latest) return null;
    // Only a compiled period can be amended; one never compiled gets its original from the scheduled run.
    if (version.kind === 'amendment' && !latest) return null;
    const now = ctx.clock.now();
    const content = await compileContent(tx, target, now);
    if (version.kind === 'amendment' && latest?.sha256_json === content.sha256_json) return null;
    const bounds = periodBounds(target.period)!;
    const row = {
      report_id: newId('report'),
      tenant_id: target.tenantId,
      report_type: target.type,
      period_kind: bounds.kind,
      period: target.period,
      period_start: bounds.start,
      period_end: bounds.end,
      version: (latest?.version ?? 0) + 1,
      version_kind: version.kind,
      reason: version.reason ?? null,
      requested_by: ctx.actor,
      generator_version: GENERATOR_VERSION,
      high_water_mark: now,
      compiled_at: now,
      ...content,
    };
    await store.insertReport(tx, row);
    await audit(tx, ctx, VERSION_AUDIT_ACTIONS[version.kind], {
      report_id: row.report_id,
      report_type: row.report_type,
      period: row.period,
      version: row.version,
      ...(version.reason ? { reason: version.reason } : {}),
    });
    const { content_csv: _csv, content_json: _json, ...summary } = row;
    return summary;
  });
}
