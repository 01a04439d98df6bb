import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { Environment } from '../../platform/db/platform-tables.js';
import type { ExportRecord, RegulatorExport } from './regulator-exports.tables.js';

export type { RegulatorExport, RegulatorExportTables } from './regulator-exports.tables.js';

/**
 * The register's columns an export carries: set at registration and never changed (voided_at, on a void record,
 * once set never changes either), so every download of an export is the same.
 */
const REGISTER_COLUMNS = [
  'exclusion_id',
  'environment',
  'tenant_id',
  'user_id',
  'email',
  'phone',
  'duration',
  'is_permanent',
  'effective_from',
  'expires_at',
  'channel',
] as const;

/** The files' columns, in order. */
export const EXPORT_COLUMNS = ['exclusion_id', 'record', ...REGISTER_COLUMNS.slice(1), 'voided_at'] as const;

export interface ExportedExclusion {
  record: ExportRecord;
  voided_at: Date | null;
  exclusion_id: string;
  environment: Environment;
  tenant_id: string | null;
  user_id: string | null;
  email: string | null;
  phone: string | null;
  duration: string;
  is_permanent: boolean;
  effective_from: Date;
  expires_at: Date | null;
  channel: string;
}

export async function insertExport(
  db: Executor,
  row: Omit<RegulatorExport, 'acknowledged_at' | 'acknowledged_by'>,
): Promise<void> {
  await db.insertInto('regulator_exports').values(row).execute();
}

export function dailyExportExists(db: Executor, environment: Environment, exportDate: string) {
  return db
    .selectFrom('regulator_exports')
    .select('export_id')
    .where('environment', '=', environment)
    .where('export_date', '=', exportDate)
    .where('kind', '=', 'daily')
    .executeTakeFirst();
}

/**
 * Puts into the export, as registrations, every operator row of the environment registered before `before` that no
 * export holds yet: an anti-join, not a cursor, so a row whose transaction committed after an earlier export's read
 * is still caught. A row voided before it was ever exported is not sent: it was registered in error.
 */
export async function addPendingRegistrations(
  db: Executor,
  exportId: string,
  environment: Environment,
  before: Date,
): Promise<number> {
  const result = await db
    .insertInto('regulator_export_rows')
    .columns(['export_id', 'exclusion_id', 'record'])
    .expression((eb) =>
      eb
        .selectFrom('exclusions as e')
        .select([sql.val(exportId).as('export_id'), 'e.exclusion_id', sql.lit('registration').as('record')])
        .where('e.origin', '=', 'operator')
        .where('e.environment', '=', environment)
        .where('e.effective_from', '<', before)
        .where((eb) => eb.or([eb('e.voided_at', 'is', null), eb('e.voided_at', '>=', before)]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('regulator_export_rows as r')
                .select(sql.lit(1).as('one'))
                .whereRef('r.exclusion_id', '=', 'e.exclusion_id'),
            ),
          ),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** Puts into the export, as voids, the rows voided before `before` whose registration was exported and void not yet. */
export async function addPendingVoids(
  db: Executor,
  exportId: string,
  environment: Environment,
  before: Date,
): Promise<number> {
  const exported = (record: 'registration' | 'void') =>
    sql<boolean>`exists (select 1 from regulator_export_rows r
      where r.exclusion_id = e.exclusion_id and r.record = ${sql.lit(record)})`;
  const result = await db
    .insertInto('regulator_export_rows')
    .columns(['export_id', 'exclusion_id', 'record'])
    .expression((eb) =>
      eb
        .selectFrom('exclusions as e')
        .select([sql.val(exportId).as('export_id'), 'e.exclusion_id', sql.lit('void').as('record')])
        .where('e.origin', '=', 'operator')
        .where('e.environment', '=', environment)
        .where('e.status', '=', 'voided')
        .where('e.voided_at', '<', before)
        .where(exported('registration'))
        .where(sql<boolean>`not ${exported('void')}`),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** The same rows as an earlier export (a re-request). */
export async function copyRows(db: Executor, fromExportId: string, toExportId: string): Promise<number> {
  const result = await db
    .insertInto('regulator_export_rows')
    .columns(['export_id', 'exclusion_id', 'record'])
    .expression((eb) =>
      eb
        .selectFrom('regulator_export_rows')
        .select([sql.val(toExportId).as('export_id'), 'exclusion_id', 'record'])
        .where('export_id', '=', fromExportId),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function setExportSummary(
  db: Executor,
  exportId: string,
  summary: { row_count: number; sha256_csv: string; sha256_json: string },
): Promise<void> {
  await db.updateTable('regulator_exports').set(summary).where('export_id', '=', exportId).execute();
}

/** One page of an export's rows in exclusion_id order, after the cursor (keyset: never the whole export in memory). */
export function exportRowsPage(
  db: Executor,
  exportId: string,
  after: string | null,
  limit: number,
): Promise<ExportedExclusion[]> {
  let query = db
    .selectFrom('regulator_export_rows as r')
    .innerJoin('exclusions as e', 'e.exclusion_id', 'r.exclusion_id')
    .select([...REGISTER_COLUMNS.map((c) => `e.${c}` as const), 'e.voided_at', 'r.record'])
    .where('r.export_id', '=', exportId);
  if (after !== null) query = query.where('r.exclusion_id', '>', after);
  return query.orderBy('r.exclusion_id').limit(limit).execute();
}

export function findExport(db: Executor, exportId: string): Promise<RegulatorExport | undefined> {
  return db.selectFrom('regulator_exports').selectAll().where('export_id', '=', exportId).executeTakeFirst();
}

/** Newest first, keyset on export_id (ids sort by creation). */
export function listExports(
  db: Executor,
  filter: { environment?: Environment | undefined; before?: string | undefined; limit: number },
): Promise<RegulatorExport[]> {
  let query = db.selectFrom('regulator_exports').selectAll();
  if (filter.environment) query = query.where('environment', '=', filter.environment);
  if (filter.before) query = query.where('export_id', '<', filter.before);
  return query.orderBy('export_id', 'desc').limit(filter.limit).execute();
}

/** Marks the export acknowledged unless it already is; returns the row only when this call acknowledged it. */
export function markAcknowledged(
  db: Executor,
  exportId: string,
  by: string,
  at: Date,
): Promise<RegulatorExport | undefined> {
  return db
    .updateTable('regulator_exports')
    .set({ acknowledged_at: at, acknowledged_by: by })
    .where('export_id', '=', exportId)
    .where('acknowledged_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** regulator_propagated becomes true for the export's rows; returns how many changed. */
export async function markPropagated(db: Executor, exportId: string): Promise<number> {
  const result = await db
    .updateTable('exclusions')
    .set({ regulator_propagated: true })
    .where('regulator_propagated', '=', false)
    .where('exclusion_id', 'in', (eb) =>
      eb.selectFrom('regulator_export_rows').select('exclusion_id').where('export_id', '=', exportId),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
