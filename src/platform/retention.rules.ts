import {
  DATA_LIFECYCLE,
  DROPPED_WHOLE,
  RETENTION_BOUNDS,
  type Keep,
  type TableLifecycle,
} from './data-lifecycle.js';
import type { Tables } from './db/schema.js';
import { DAY_MS } from './utc-calendar.js';

/** A table the retention job applies the lifecycle to. */
export type RetainedTable = keyof Tables & string;

/** One tenant's overrides: a table's period in the unit of its default. */
export type TenantOverrides = ReadonlyMap<RetainedTable, Keep>;

export const lifecycleOf = (table: RetainedTable): TableLifecycle => DATA_LIFECYCLE[table];

/**
 * Every table the job applies, in the order it visits them: rows due with a parent (`through`) before their
 * parents, the end of the relationship last, as it must outlive every clock that runs from it.
 */
export const RETAINED_TABLES: readonly RetainedTable[] = (Object.keys(DATA_LIFECYCLE) as RetainedTable[])
  .filter((table) => lifecycleOf(table).keep !== 'in_use' && !DROPPED_WHOLE.includes(table))
  .map((table, index) => ({ table, index }))
  .sort((a, b) => rank(a.table) - rank(b.table) || a.index - b.index)
  .map(({ table }) => table);

function rank(table: RetainedTable): number {
  if (table === 'player_closures') return 2;
  return lifecycleOf(table).through ? 0 : 1;
}

/** The kept period's start: rows whose clock is strictly before it are due (whole calendar years, or days). */
export function cutoffOf(keep: Keep, now: Date): Date {
  if ('days' in keep) return new Date(now.getTime() - keep.days * DAY_MS);
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - keep.years);
  // 29 February counts back to 28 February in a common year, never to 1 March: a row is kept its whole period.
  if (cutoff.getUTCMonth() !== now.getUTCMonth()) cutoff.setUTCDate(0);
  return cutoff;
}

export const defaultKeep = (table: RetainedTable): Keep => {
  const keep = lifecycleOf(table).keep;
  if (keep === 'in_use') throw new Error(`${table} is kept while in use`);
  return keep;
};

const unitOf = (keep: Keep) => ('years' in keep ? 'years' : 'days');
const amountOf = (keep: Keep) => ('years' in keep ? keep.years : keep.days);
export const describeKeep = (keep: Keep) =>
  `${amountOf(keep)} ${unitOf(keep) === 'years' ? 'year' : 'day'}${amountOf(keep) === 1 ? '' : 's'}`;

/** The tables whose clock is the player's closure (relationship_end through the player's user_id). */
export const FROM_CLOSURE: readonly RetainedTable[] = RETAINED_TABLES.filter(
  (table) =>
    table !== 'player_closures' &&
    lifecycleOf(table).from === 'relationship_end' &&
    lifecycleOf(table).player === 'user_id',
);

/** The longer of two periods in the same unit. */
const longer = (a: Keep, b: Keep): Keep => (amountOf(b) > amountOf(a) ? b : a);

/**
 * A table's period for a tenant: its override, else the deployment's (the security log's configured days), else
 * the default; the closure's is the longest kept from it.
 */
export function keepFor(
  table: RetainedTable,
  overrides: TenantOverrides | undefined,
  deployment?: TenantOverrides,
): Keep {
  if (table === 'player_closures') {
    return FROM_CLOSURE.reduce((keep, t) => longer(keep, keepFor(t, overrides)), defaultKeep(table));
  }
  return overrides?.get(table) ?? deployment?.get(table) ?? defaultKeep(table);
}

/**
 * Whether a tenant may override a table's period: a table of its own rows (a tenant_id column), kept for a time,
 * not dropped whole (a partition holds every tenant), with bounds for its basis in its unit, not the closure (which
 * follows the longest of the others) and not a key kept with its row.
 */
export function overridable(table: RetainedTable, tenantOwned: boolean): boolean {
  const lifecycle = lifecycleOf(table);
  const bounds = RETENTION_BOUNDS[lifecycle.basis];
  return (
    tenantOwned &&
    RETAINED_TABLES.includes(table) &&
    table !== 'player_closures' &&
    !lifecycle.keptWith &&
    bounds !== null &&
    unitOf(bounds.longest) === unitOf(defaultKeep(table))
  );
}

/** A table's bounds in its unit. */
export function boundsOf(table: RetainedTable): { shortest: Keep; longest: Keep; why: string } | undefined {
  const bounds = RETENTION_BOUNDS[lifecycleOf(table).basis];
  if (!bounds) return undefined;
  return {
    shortest: bounds.shortest === 'default' ? defaultKeep(table) : bounds.shortest,
    longest: bounds.longest,
    why: bounds.why,
  };
}

/** Why a period cannot be a table's override, or undefined when it can (the table is overridable). */
export function overrideProblem(table: RetainedTable, keep: Keep): string | undefined {
  const bounds = boundsOf(table)!;
  if (unitOf(keep) !== unitOf(bounds.longest))
    return `${table} is kept in ${unitOf(bounds.longest)}, not ${unitOf(keep)}`;
  if (amountOf(keep) < amountOf(bounds.shortest) || amountOf(keep) > amountOf(bounds.longest))
    return `${table} may be kept from ${describeKeep(bounds.shortest)} to ${describeKeep(bounds.longest)}, not ${describeKeep(keep)} (${bounds.why})`;
  return undefined;
}
