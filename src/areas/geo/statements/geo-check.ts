import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import {
  columnArrays,
  precompiled,
  unnestRows,
  type ColumnArrays,
  type Param,
} from '../../../platform/db/precompiled.js';
import { UNLISTED_PLACE_STATUS, type CountryStatus } from '../geo.rules.js';
import type { GeoAuditLogTable } from '../geo.tables.js';

const AUDIT_COLUMNS = {
  tenant_id: 'text',
  checked_at: 'timestamptz',
  request_id: 'text',
  ip_address: 'text',
  user_agent: 'text',
  context: 'text',
  resolver: 'text',
  country_code: 'text',
  region: 'text',
  status: 'text',
  cache: 'text',
} as const;

/** An audit row; `status` null means "the tier the list gives this place now", resolved in the same statement. */
export type NewAuditRow = Omit<
  { [K in keyof typeof AUDIT_COLUMNS]: Insertable<GeoAuditLogTable>[K] },
  'status'
> & { status: GeoAuditLogTable['status'] | null };

/** The list entry that decided a check: the region's (CA-ON) before its country's; null for an unlisted place. */
export interface DecidingEntry {
  request_id: string;
  status: CountryStatus | null;
  name: string | null;
}

const auditColumns = Object.keys(AUDIT_COLUMNS);
const columnList = sql.join(auditColumns.map((name) => sql.ref(name)));
/**
 * Each check's audit values; a status left null is the deciding entry's tier, or UNLISTED_PLACE_STATUS when no entry
 * names the place. A literal, not a parameter, so the statement's text and plan stay as benchmarked.
 */
const auditValues = auditColumns.map((name) =>
  name === 'status'
    ? sql`coalesce(c.status, 'status_' || coalesce(d.status, ${sql.lit(UNLISTED_PLACE_STATUS)}))`
    : sql.ref(`c.${name}`),
);

/**
 * The geo check's one statement: reads each check's tier fresh from the list and writes its audit row with the
 * resulting status, for a whole group commit's checks at once.
 */
const auditChecksStatement = precompiled(
  (_db, param: Param<ColumnArrays<typeof AUDIT_COLUMNS>>) =>
    sql<DecidingEntry>`
    with checks (${columnList}) as (${unnestRows(AUDIT_COLUMNS, param)}),
    deciding as (
      select c.request_id, t.status, t.name
      from checks c left join lateral (
        select status, name from geo_countries
        where code in (c.region, c.country_code)
        order by code = c.region desc
        limit 1) t on true
    ),
    stored as (
      insert into geo_audit_log (${columnList})
      select ${sql.join(auditValues)}
      from checks c join deciding d on d.request_id = c.request_id
    )
    select request_id, status, name from deciding`,
);

/** Audits checks; per row (in order), the list entry that decided it. */
export async function auditChecks(db: Executor, rows: NewAuditRow[]): Promise<DecidingEntry[]> {
  const entries = await auditChecksStatement.execute(db, columnArrays(AUDIT_COLUMNS, rows));
  const byRequest = new Map(entries.map((entry) => [entry.request_id, entry]));
  return rows.map((row) => byRequest.get(row.request_id)!);
}
