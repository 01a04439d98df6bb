import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import type { Executor } from '../../../platform/db/database.js';
import type { Environment } from '../../../platform/db/platform-tables.js';
import { sha256OfChunks } from '../../../platform/digest.js';
import { AppError } from '../../../platform/errors.js';
import { newId } from '../../../platform/ids.js';
import { withTransaction } from '../../../platform/service-context.js';
import { addUtcDays, startOfUtcDay, utcDay } from '../../../platform/utc-calendar.js';
import { exportContent, type ExportFormat } from '../regulator-exports.format.js';
import * as store from '../regulator-exports.store.js';

/**
 * The hand-over of the register to the regulator (docs/exclusions.md, "The hand-over to the regulator"): a daily
 * export per environment of the operator rows no export holds yet, acknowledged by the regulator, which is what
 * makes an exclusion's regulator_propagated true. A re-request sends an earlier export's rows again.
 */

export const ENVIRONMENTS: readonly Environment[] = ['live', 'sandbox'];

const notFound = (exportId: string) => new AppError('export_not_found', `No regulator export ${exportId}`);

/** The record as the back office shows it. */
export function exportView(row: store.RegulatorExport) {
  return {
    export_id: row.export_id,
    environment: row.environment,
    kind: row.kind,
    export_date: row.export_date,
    rerequest_of: row.rerequest_of,
    reason: row.reason,
    requested_by: row.requested_by,
    created_at: row.created_at.toISOString(),
    row_count: row.row_count,
    sha256_csv: row.sha256_csv,
    sha256_json: row.sha256_json,
    acknowledged_at: row.acknowledged_at?.toISOString() ?? null,
    acknowledged_by: row.acknowledged_by,
  };
}
export type ExportView = ReturnType<typeof exportView>;

type ExportRow = Omit<store.RegulatorExport, 'acknowledged_at' | 'acknowledged_by'>;

/**
 * Writes one export: its record, then its rows (`addRows` returns how many), then the rows' count and the digests of
 * both formats, computed a page at a time.
 */
async function writeExport(
  tx: Executor,
  ctx: ServiceContext,
  fields: Pick<ExportRow, 'environment' | 'kind' | 'export_date' | 'rerequest_of' | 'reason'>,
  addRows: (exportId: string) => Promise<number>,
): Promise<ExportRow> {
  const row: ExportRow = {
    ...fields,
    export_id: newId('regulator_export'),
    requested_by: ctx.actor,
    created_at: ctx.clock.now(),
    row_count: 0,
    sha256_csv: '',
    sha256_json: '',
    csv_cells_neutralised: true,
  };
  await store.insertExport(tx, row);
  const rowCount = await addRows(row.export_id);
  const csv = await sha256OfChunks(exportContent(tx, row, 'csv'));
  const json = await sha256OfChunks(exportContent(tx, row, 'json'));
  const summary = { row_count: rowCount, sha256_csv: csv.sha256, sha256_json: json.sha256 };
  await store.setExportSummary(tx, row.export_id, summary);
  return { ...row, ...summary };
}

/**
 * The daily export of each environment for the UTC day before `now`'s: every operator row registered before
 * that day's end and not exported yet, so rows of a day the job missed go with the next export, and every exported
 * row voided since, as a void record. Runs inside the
 * scheduler's claim of its job, so with several workers it happens once; the unique daily index is a second guard.
 */
export async function exportToRegulator(ctx: ServiceContext): Promise<ExportView[]> {
  return withTransaction(ctx, async (tx, ctx) => {
    const now = ctx.clock.now();
    const cutoff = startOfUtcDay(now);
    const exportDate = utcDay(addUtcDays(cutoff, -1));
    const made: ExportView[] = [];
    for (const environment of ENVIRONMENTS) {
      if (await store.dailyExportExists(tx, environment, exportDate)) continue;
      const row = await writeExport(
        tx,
        ctx,
        { environment, kind: 'daily', export_date: exportDate, rerequest_of: null, reason: null },
        async (exportId) =>
          (await store.addPendingRegistrations(tx, exportId, environment, cutoff)) +
          (await store.addPendingVoids(tx, exportId, environment, cutoff)),
      );
      await audit(tx, ctx, 'regulator.export_created', {
        export_id: row.export_id,
        environment,
        export_date: exportDate,
        row_count: row.row_count,
      });
      made.push(exportView({ ...row, acknowledged_at: null, acknowledged_by: null }));
    }
    return made;
  });
}

export async function listExports(
  ctx: ServiceContext,
  filter: { environment?: Environment | undefined; before?: string | undefined; limit: number },
): Promise<{ exports: ExportView[] }> {
  return { exports: (await store.listExports(ctx.db, filter)).map(exportView) };
}

export async function getExport(ctx: ServiceContext, exportId: string): Promise<ExportView> {
  const row = await store.findExport(ctx.db, exportId);
  if (!row) throw notFound(exportId);
  return exportView(row);
}

/** The export's file, a page of rows at a time; its SHA-256 is the digest recorded for that format. */
export async function exportFile(
  ctx: ServiceContext,
  exportId: string,
  format: ExportFormat,
): Promise<AsyncGenerator<string>> {
  const row = await store.findExport(ctx.db, exportId);
  if (!row) throw notFound(exportId);
  return exportContent(ctx.db, row, format);
}

/**
 * The regulator has taken the export in: its exclusions' regulator_propagated becomes true, which the tenants'
 * records show from then on. A second acknowledgement changes nothing and answers the same record (a retried POST).
 */
export async function acknowledgeExport(ctx: ServiceContext, exportId: string): Promise<ExportView> {
  return withTransaction(ctx, async (tx, ctx) => {
    const acknowledged = await store.markAcknowledged(tx, exportId, ctx.actor, ctx.clock.now());
    if (!acknowledged) {
      const existing = await store.findExport(tx, exportId);
      if (!existing) throw notFound(exportId);
      return exportView(existing);
    }
    const propagated = await store.markPropagated(tx, exportId);
    await audit(tx, ctx, 'regulator.export_acknowledged', {
      export_id: exportId,
      row_count: acknowledged.row_count,
      newly_propagated: propagated,
    });
    return exportView(acknowledged);
  });
}

/**
 * Sends an earlier export's rows again as a new export (the regulator lost or could not read a file): the only way
 * a row is exported twice. The original stays as it was; the new one names it and the reason.
 */
export async function rerequestExport(
  ctx: ServiceContext,
  exportId: string,
  reason: string,
): Promise<ExportView> {
  return withTransaction(ctx, async (tx, ctx) => {
    const original = await store.findExport(tx, exportId);
    if (!original) throw notFound(exportId);
    const row = await writeExport(
      tx,
      ctx,
      {
        environment: original.environment,
        kind: 'rerequest',
        export_date: utcDay(ctx.clock.now()),
        rerequest_of: original.export_id,
        reason,
      },
      (exportId) => store.copyRows(tx, original.export_id, exportId),
    );
    await audit(tx, ctx, 'regulator.export_rerequested', {
      export_id: row.export_id,
      rerequest_of: original.export_id,
      reason,
      row_count: row.row_count,
    });
    return exportView({ ...row, acknowledged_at: null, acknowledged_by: null });
  });
}
