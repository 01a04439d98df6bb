import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import {
  columnArrays,
  precompiled,
  unnestArrays,
  type ColumnArrays,
  type ColumnType,
  type Param,
  type RowOf,
} from '../../../platform/db/precompiled.js';
import type { Trip } from './types.js';

/**
 * One rule's test: a history read (an SQL fragment) and the decision over what it returns. The fragment is built
 * only when a statement is: a precompiled set of checks (see precompiledChecks) never builds it per call.
 */
export interface Check {
  fragment(): RawBuilder<unknown>;
  decide(result: unknown): Trip[];
}

export function check<R>(fragment: () => RawBuilder<R>, decide: (result: R) => Trip[]): Check {
  return { fragment, decide: decide as (result: unknown) => Trip[] };
}

/** Every check's fragment as one column of a select: one round trip for all of them. */
const checkColumns = (checks: Check[]) =>
  sql.join(checks.map((c, i) => sql`${c.fragment()} as ${sql.ref(`c${i}`)}`));

const decideAll = (checks: Check[], row: Record<string, unknown>) =>
  checks.flatMap((c, i) => c.decide(row[`c${i}`]));

/** Runs any number of checks as one statement (one round trip) and returns every trip they find. */
export async function runChecks(db: Executor, checks: Check[]): Promise<Trip[]> {
  if (checks.length === 0) return [];
  const { rows } = await sql<Record<string, unknown>>`select ${checkColumns(checks)}`.execute(db);
  return decideAll(checks, rows[0]!);
}

/**
 * A fixed set of checks, its statement compiled once, run for many points at once: one statement per batch,
 * whatever its size. The points travel as one array per field (`columns` gives each field's type), are unnested
 * into rows, and each check's fragment reads its point's fields as columns of that row. `checksFor(point)` names
 * the checks: it is called once with those columns (the fragments, then compiled) and per point with its values
 * (the decisions; no fragment is built), so which checks there are, and their fragments' shape, must not depend on
 * the values. The result has one list of trips per point, in order.
 */
export function precompiledChecks<Columns extends Record<string, ColumnType>>(
  columns: Columns,
  checksFor: (point: RowOf<Columns>) => Check[],
) {
  const names = Object.keys(columns).map((name) => sql.ref(name));
  let checkCount = 0;
  const statement = precompiled((_db, param: Param<ColumnArrays<Columns>>) => {
    const fields = new Proxy({} as RowOf<Columns>, {
      get: (_target, name) => sql.ref(`point.${String(name)}`),
    });
    const checks = checksFor(fields);
    checkCount = checks.length;
    return sql<Record<string, unknown>>`select ${checkColumns(checks)}
      from ${unnestArrays(columns, param)} with ordinality as point(${sql.join(names)}, ord)
      order by ord`;
  });
  return async (db: Executor, points: RowOf<Columns>[]): Promise<Trip[][]> => {
    if (points.length === 0 || checkCount === 0) return points.map(() => []);
    const rows = await statement.execute(db, columnArrays(columns, points));
    return points.map((point, i) => decideAll(checksFor(point), rows[i]!));
  };
}
