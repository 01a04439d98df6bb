import type { Executor } from '../../platform/db/database.js';
import { csvRecord } from '../../platform/csv.js';
import type { RegulatorExport } from './regulator-exports.tables.js';
import { EXPORT_COLUMNS, exportRowsPage, type ExportedExclusion } from './regulator-exports.store.js';

export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const PAGE = 1000;

/** One exported row as the files carry it: times in ISO 8601 UTC, absent values null (empty in CSV). */
function record(row: ExportedExclusion) {
  return {
    exclusion_id: row.exclusion_id,
    record: row.record,
    environment: row.environment,
    tenant_id: row.tenant_id,
    user_id: row.user_id,
    email: row.email,
    phone: row.phone,
    duration: row.duration,
    is_permanent: row.is_permanent,
    effective_from: row.effective_from.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    channel: row.channel,
    // Only a void record says when: a registration record reads the same after a later void.
    voided_at: row.record === 'void' ? (row.voided_at?.toISOString() ?? null) : null,
  };
}

async function* rows(db: Executor, exportId: string) {
  let after: string | null = null;
  for (;;) {
    const page = await exportRowsPage(db, exportId, after, PAGE);
    for (const row of page) yield record(row);
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.exclusion_id;
  }
}

/**
 * An export's content, a page of rows at a time: CSV (RFC 4180, one header row, EXPORT_COLUMNS, text cells that
 * could start a formula neutralised, platform/csv.ts) or JSON (the export's identity, then its rows). The same
 * export always gives the same bytes, which the stored digests prove: one written before cells were neutralised
 * renders as it was.
 */
export async function* exportContent(
  db: Executor,
  exp: Pick<
    RegulatorExport,
    'export_id' | 'environment' | 'export_date' | 'kind' | 'rerequest_of' | 'csv_cells_neutralised'
  >,
  format: ExportFormat,
): AsyncGenerator<string> {
  if (format === 'csv') {
    const options = { neutralise: exp.csv_cells_neutralised };
    yield csvRecord(EXPORT_COLUMNS, options);
    for await (const row of rows(db, exp.export_id)) {
      yield csvRecord(
        EXPORT_COLUMNS.map((c) => row[c]),
        options,
      );
    }
    return;
  }
  const head = {
    export_id: exp.export_id,
    environment: exp.environment,
    export_date: exp.export_date,
    kind: exp.kind,
    rerequest_of: exp.rerequest_of,
  };
  yield `${JSON.stringify(head).slice(0, -1)},"rows":[`;
  let first = true;
  for await (const row of rows(db, exp.export_id)) {
    yield `${first ? '' : ','}${JSON.stringify(row)}`;
    first = false;
  }
  yield ']}\n';
}
