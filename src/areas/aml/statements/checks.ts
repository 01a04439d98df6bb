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
import type { Trip } from '../rules/types.js';

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
const checkColumns = (checks: Check[]) => checks.map((c, i) => sql`${c.fragment()} as ${sql.ref(`c${i}`)}`);

const decideAll = (checks: Check[], row: Record<string, unknown>) =>
  checks.flatMap((c, i) => c.decide(row[`c${i}`]));

/** Runs any number of checks as one statement (one round trip) and returns every trip they find. */
export async function runChecks(db: Executor, checks: Check[]): Promise<Trip[]> {
  if (checks.length === 0) return [];
  const { rows } = await sql<Record<string, unknown>>`select ${sql.join(checkColumns(checks))}`.execute(db);
  return decideAll(checks, rows[0]!);
}

/**
 * A fixed set of checks, its statement compiled once, run for many points at once: one statement per batch,
 * whatever its size. The points travel as one array per field (`columns` gives each field's type), are unnested
 * into rows, and each check's fragment reads its point's fields as columns of that row. `checksFor(point)` names
 * the checks: it is called once with those columns (the fragments, then compiled) and per point with its values
 * (the decisions; no fragment is built), so which checks there are, and their fragments' shape, must not depend on
 * the values. `derived` adds fields the statement computes from the sent ones (an amount in USD, from the rate in
 * force), which the checks read like the others. The result has, per point in order, its trips and its fields.
 */
export function precompiledChecks<
  Columns extends Record<string, ColumnType>,
  Derived extends Record<string, 'bigint'> = Record<never, 'bigint'>,
>(
  columns: Columns,
  checksFor: (point: RowOf<Columns & Derived>) => Check[],
  derived: { [K in keyof Derived]: (sent: RowOf<Columns>) => RawBuilder<unknown> } = {} as never,
) {
  const names = Object.keys(columns).map((name) => sql.ref(name));
  const derivedNames = Object.keys(derived) as Array<keyof Derived & string>;
  const refs = <Row extends object>(table: string) =>
    new Proxy({} as Row, { get: (_target, name) => sql.ref(`${table}.${String(name)}`) });
  let checkCount = 0;
  const statement = precompiled((_db, param: Param<ColumnArrays<Columns>>) => {
    const checks = checksFor(refs<RowOf<Columns & Derived>>('point'));
    checkCount = checks.length;
    const outputs = derivedNames.map((name) => sql`point.${sql.ref(name)} as ${sql.ref(`d_${name}`)}`);
    const unnested = (alias: string) =>
      sql`${unnestArrays(columns, param)} with ordinality as ${sql.id(alias)}(${sql.join(names)}, ord)`;
    const computed = derivedNames.map(
      (name) => sql`${derived[name](refs<RowOf<Columns>>('sent'))} as ${sql.ref(name)}`,
    );
    // offset 0 keeps the subquery whole: each derived field is computed once per point, where a flattened
    // subquery would compute it again wherever a check reads it.
    const points =
      derivedNames.length === 0
        ? unnested('point')
        : sql`(select ${sql.join([sql`sent.*`, ...computed])} from ${unnested('sent')} offset 0) as point`;
    return sql<Record<string, unknown>>`select ${sql.join([...checkColumns(checks), ...outputs])}
      from ${points} order by ord`;
  });
  return async (
    db: Executor,
    points: RowOf<Columns>[],
  ): Promise<Array<{ trips: Trip[]; point: RowOf<Columns & Derived> }>> => {
    if (points.length === 0 || (checkCount === 0 && derivedNames.length === 0)) {
      return points.map((point) => ({ trips: [], point: point as RowOf<Columns & Derived> }));
    }
    const rows = await statement.execute(db, columnArrays(columns, points));
    return points.map((sent, i) => {
      const row = rows[i]!;
      const point = { ...sent } as RowOf<Columns & Derived>;
      for (const name of derivedNames) {
        const value = row[`d_${name}`];
        // A USD amount without a rate, say: a caller checks first, so this is a bug, never a silent 0.
        if (value === null) throw new Error(`${name} could not be computed for a point`);
        (point as Record<string, unknown>)[name] = Number(value);
      }
      return { trips: decideAll(checksFor(point), row), point };
    });
  };
}
