import { sql, type RawBuilder } from 'kysely';
import type { CaseKind, Keep, Treatment } from './data-lifecycle.js';
import { pseudonymiseRows, stillToPseudonymise } from './data-lifecycle.store.js';
import type { Executor } from './db/database.js';
import type { Timestamp } from './db/platform-tables.js';
import {
  cutoffOf,
  keepFor,
  lifecycleOf,
  type RetainedTable,
  type TenantOverrides,
} from './retention.rules.js';

/** A tenant's period for one table, within its bounds (retention.rules.ts); absent: the default. */
export interface RetentionOverridesTable {
  tenant_id: string;
  table_name: string;
  keep_years: number | null;
  keep_days: number | null;
  updated_at: Timestamp;
  updated_by: string;
}

export interface RetentionTables {
  retention_overrides: RetentionOverridesTable;
}

type Sql = RawBuilder<unknown>;

/** What the job knows of the periods in force: each tenant's overrides, the deployment's, and whose rows are whose. */
export interface Periods {
  overrides: ReadonlyMap<string, TenantOverrides>;
  deployment: TenantOverrides;
  tenantOwned: ReadonlySet<string>;
}

/** Every tenant's overrides, by tenant then table. */
export async function allOverrides(db: Executor): Promise<Map<string, Map<RetainedTable, Keep>>> {
  const rows = await db.selectFrom('retention_overrides').selectAll().execute();
  const byTenant = new Map<string, Map<RetainedTable, Keep>>();
  for (const row of rows) {
    const tenant = byTenant.get(row.tenant_id) ?? new Map<RetainedTable, Keep>();
    tenant.set(row.table_name as RetainedTable, keepOfRow(row));
    byTenant.set(row.tenant_id, tenant);
  }
  return byTenant;
}

export const keepOfRow = (row: { keep_years: number | null; keep_days: number | null }): Keep =>
  row.keep_years !== null ? { years: row.keep_years } : { days: row.keep_days! };

export function overridesOf(db: Executor, tenantId: string) {
  return db.selectFrom('retention_overrides').selectAll().where('tenant_id', '=', tenantId).execute();
}

export async function saveOverride(
  tx: Executor,
  row: { tenant_id: string; table_name: string; keep: Keep; updated_at: Date; updated_by: string },
): Promise<void> {
  const values = {
    tenant_id: row.tenant_id,
    table_name: row.table_name,
    keep_years: 'years' in row.keep ? row.keep.years : null,
    keep_days: 'days' in row.keep ? row.keep.days : null,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
  };
  await tx
    .insertInto('retention_overrides')
    .values(values)
    .onConflict((oc) => oc.columns(['tenant_id', 'table_name']).doUpdateSet(values))
    .execute();
}

export async function removeOverride(tx: Executor, tenantId: string, table: string): Promise<void> {
  await tx
    .deleteFrom('retention_overrides')
    .where('tenant_id', '=', tenantId)
    .where('table_name', '=', table)
    .execute();
}

let tenantOwned: Promise<Set<string>> | undefined;

/** The tables with a tenant_id column: a tenant's override applies to their rows (read once from the schema). */
export function tenantOwnedTables(db: Executor): Promise<Set<string>> {
  tenantOwned ??= sql<{ table_name: string }>`
    select table_name from information_schema.columns
    where column_name = 'tenant_id' and table_schema = current_schema()`
    .execute(db)
    .then((r) => new Set(r.rows.map((row) => row.table_name)))
    .catch((error: unknown) => {
      tenantOwned = undefined;
      throw error;
    });
  return tenantOwned;
}

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * The start of the kept period of `table`'s rows: the default's, or per tenant its override's (a CASE on the row's
 * tenant_id, for the few tenants with one).
 */
function cutoffSql(table: RetainedTable, alias: string, now: Date, periods: Periods): Sql {
  const standard = cutoffOf(keepFor(table, undefined, periods.deployment), now);
  const fallback = at(standard);
  if (!periods.tenantOwned.has(table)) return fallback;
  const cases = [...periods.overrides]
    .map(
      ([tenant, ofTenant]) => [tenant, cutoffOf(keepFor(table, ofTenant, periods.deployment), now)] as const,
    )
    .filter(([, cutoff]) => cutoff.getTime() !== standard.getTime())
    .map(([tenant, cutoff]) => sql`when ${tenant} then ${at(cutoff)}`);
  if (cases.length === 0) return fallback;
  return sql`(case ${ref(alias, 'tenant_id')} ${sql.join(cases, sql` `)} else ${fallback} end)`;
}

/** An exclusion has ended (expired or voided) before the cutoff; a permanent or active one never ends. */
const exclusionEnded = (e: string, cutoff: Sql): Sql =>
  sql`((${ref(e, 'status')} = 'expired' and ${ref(e, 'expired_at')} < ${cutoff})
    or (${ref(e, 'status')} = 'voided' and ${ref(e, 'voided_at')} < ${cutoff}))`;

/** A closed case of each kind, by its id, closed before the cutoff: what case_closure counts from. */
const CASE_CLOSED: Record<CaseKind, (id: Sql, cutoff: Sql) => Sql> = {
  aml: (id, cutoff) => sql`exists (select 1 from aml_cases c where c.case_id = ${id}
    and c.status in ('cleared', 'frozen') and c.decided_at < ${cutoff})`,
  sanctions: (id, cutoff) => sql`exists (select 1 from sanctions_cases c where c.case_id = ${id}
    and c.status in ('cleared', 'confirmed') and c.decided_at < ${cutoff})`,
  kyc: (id, cutoff) => sql`exists (select 1 from kyc_checks c where c.kyc_check_id = ${id}
    and not c.is_open and coalesce(c.decided_at, c.updated_at) < ${cutoff})`,
  exclusion: (id, cutoff) =>
    sql`exists (select 1 from exclusions e where e.exclusion_id = ${id} and ${exclusionEnded('e', cutoff)})`,
  staff: (id, cutoff) =>
    sql`exists (select 1 from staff_accounts s where s.staff_id = ${id} and s.disabled_at < ${cutoff})`,
  // A follow-up's id is tenant_id/user_id: it is the player's, closed with the relationship.
  safer_gambling: (id, cutoff) => sql`exists (select 1 from player_closures c
    where c.tenant_id || '/' || c.user_id = ${id} and c.closed_at < ${cutoff})`,
};
const CASE_KINDS = Object.keys(CASE_CLOSED) as CaseKind[];

/** What keeps a due row a while longer: it is still in use, or a kept row refers to it. */
const GUARDS: Partial<Record<RetainedTable, (alias: string) => Sql>> = {
  // A list's latest version is the one in use, however old.
  sanctions_list_versions: (t) => sql`exists (select 1 from sanctions_list_versions n
    where n.list = ${ref(t, 'list')} and n.accepted_at > ${ref(t, 'accepted_at')})`,
  // A re-request refers to its original: the original goes with it.
  regulator_exports: (t) => sql`not exists (select 1 from regulator_exports r
    where r.rerequest_of = ${ref(t, 'export_id')})`,
};

/** A key kept with a partitioned table's row waits for that row to go with its partition (keptWith). */
const rowGone = (alias: string, { table, key, at }: { table: string; key: string; at: string }): Sql =>
  sql`not exists (select 1 from ${sql.table(table)} as k where ${ref('k', key)} = ${ref(alias, key)}
    and ${ref('k', at)} = ${ref(alias, at)})`;

/** The rows of `table` (as `alias`) whose retention has run out at `now`, as the lifecycle's clock says. */
export function duePredicate(table: RetainedTable, alias: string, now: Date, periods: Periods): Sql {
  const lifecycle = lifecycleOf(table);
  const cutoff = cutoffSql(table, alias, now, periods);
  const guard = GUARDS[table]?.(alias) ?? (lifecycle.keptWith && rowGone(alias, lifecycle.keptWith));
  const due = clockPredicate();
  return guard ? sql`(${due} and ${guard})` : due;

  function clockPredicate(): Sql {
    if (lifecycle.at) return sql`${ref(alias, lifecycle.at)} < ${cutoff}`;
    if (lifecycle.through) {
      const { table: parent, key } = lifecycle.through;
      const p = `${alias}_parent`;
      const parentDue = duePredicate(parent as RetainedTable, p, now, periods);
      return sql`exists (select 1 from ${sql.table(parent)} as ${sql.id(p)}
        where ${ref(p, key)} = ${ref(alias, key)} and ${parentDue})`;
    }
    if (lifecycle.caseOf) {
      const { key, kind } = lifecycle.caseOf;
      const id = ref(alias, key);
      if ((CASE_KINDS as string[]).includes(kind)) return CASE_CLOSED[kind as CaseKind](id, cutoff);
      const byKind = CASE_KINDS.map(
        (k) => sql`(${ref(alias, kind)} = ${k} and ${CASE_CLOSED[k](id, cutoff)})`,
      );
      return sql`(${sql.join(byKind, sql` or `)})`;
    }
    if (lifecycle.from === 'exclusion_end') return exclusionEnded(alias, cutoff);
    if (lifecycle.from === 'relationship_end' && lifecycle.player === 'user_id') {
      // The cutoff on the closure's own tenant (the row's): the closures past it are found before any row is read,
      // not each player's rows read and then compared with their closure, which a tenant's override would make.
      return sql`exists (select 1 from player_closures c where c.tenant_id = ${ref(alias, 'tenant_id')}
        and c.user_id = ${ref(alias, 'user_id')} and c.closed_at < ${cutoffSql(table, 'c', now, periods)})`;
    }
    throw new Error(`${table}: no clock for ${lifecycle.from} (set at, through or caseOf in DATA_LIFECYCLE)`);
  }
}

/**
 * Deletes at most `limit` due rows of `table`, re-checking each on its latest version (a row changed meanwhile, a
 * hold placed again, stays); returns how many went. In a partitioned table a ctid names a row of each partition: a
 * batch may then take a few more due rows than `limit`, never a row not due.
 */
export async function deleteDue(
  db: Executor,
  table: RetainedTable,
  due: Sql,
  limit: number,
): Promise<number> {
  const result = await sql`
    delete from ${sql.table(table)} as t
    where t.ctid = any(array(select t.ctid from ${sql.table(table)} as t where ${due} limit ${limit}))
      and ${due}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Pseudonymises at most `limit` due rows of `table` still to pseudonymise (those done stay due, passed over). */
export function pseudonymiseDue(
  db: Executor,
  table: RetainedTable,
  columns: { readonly [column: string]: Treatment | undefined },
  due: Sql,
  key: Buffer,
  limit: number,
): Promise<number> {
  const batch = sql`t.ctid = any(array(select t.ctid from ${sql.table(table)} as t
    where ${due} and ${stillToPseudonymise(columns, key)} limit ${limit})) and ${due}`;
  return pseudonymiseRows(db, table, columns, batch, key);
}

/** Before a list version goes, the next version forgets it as its predecessor (it is the first one kept). */
export async function unlinkDueVersions(db: Executor, due: Sql): Promise<void> {
  await sql`
    update sanctions_list_versions set previous_version_id = null
    where previous_version_id in (select t.version_id from sanctions_list_versions as t where ${due})`.execute(
    db,
  );
}
