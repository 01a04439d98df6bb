import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Compilable,
  type Dialect,
  type RawBuilder,
} from 'kysely';
import type { Executor } from './database.js';
import type { DB } from './schema.js';

/** The one dialect's compiler with no connection behind it: queries are built and compiled, never run. */
export const COMPILE_ONLY_DIALECT: Dialect = {
  createAdapter: () => new PostgresAdapter(),
  createDriver: () => new DummyDriver(),
  createIntrospector: (db) => new PostgresIntrospector(db),
  createQueryCompiler: () => new PostgresQueryCompiler(),
};

const compiler = new Kysely<DB>({ dialect: COMPILE_ONLY_DIALECT });

/** Stands for a named parameter while the statement is compiled; replaced by the caller's value on each run. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** Marks where a named value goes; annotate a builder's `param` with it so that both types are inferred. */
export type Param<Params> = <K extends keyof Params & string>(name: K) => Params[K];

export interface Precompiled<Params, Row> {
  /** The statement with this call's values bound. */
  bind(params: Params): CompiledQuery<Row>;
  execute(db: Executor, params: Params): Promise<Row[]>;
}

/**
 * A hot-path statement, written with Kysely's typed builder but built and compiled once, when the module loads;
 * each run only binds its values. Building a query tree and compiling it on every request cost about a fifth of
 * a simple request's CPU. `param(name)` marks where a value goes: the statement's shape must not depend on the
 * values (use `coalesce`, `is null` or `= any(...)` where a call would otherwise add or drop a clause).
 */
export function precompiled<Params extends object, Row>(
  build: (db: Kysely<DB>, param: Param<Params>) => Compilable<Row> | RawBuilder<Row>,
): Precompiled<Params, Row> {
  const { sql, parameters } = build(compiler, (name) => new Placeholder(name) as never).compile(compiler);
  const bind = (params: Params) =>
    CompiledQuery.raw(
      sql,
      parameters.map((value) => (value instanceof Placeholder ? params[value.name as keyof Params] : value)),
    ) as CompiledQuery<Row>;
  return {
    bind,
    async execute(db, params) {
      return (await db.executeQuery(bind(params))).rows;
    },
  };
}

/** PostgreSQL types of columns sent through `unnestArrays`. */
export type ColumnType = 'text' | 'bigint' | 'integer' | 'boolean' | 'jsonb' | 'timestamptz';

/** The JavaScript value bound for each column type (jsonb as its JSON text). */
interface ColumnValues {
  text: string;
  bigint: number;
  integer: number;
  boolean: boolean;
  jsonb: string;
  timestamptz: Date;
}

/** One row of values for columns typed as `Columns`. */
export type RowOf<Columns extends Record<string, ColumnType>> = {
  -readonly [K in keyof Columns]: ColumnValues[Columns[K]];
};

/** One array per column: the rows of a multi-row write, column by column. */
export type ColumnArrays<Columns> = { [K in keyof Columns]: unknown[] };

/**
 * `select * from unnest(…)` (see unnestArrays): the rows of a multi-row INSERT, each column sent as one
 * array. The statement is the same for 1 row or 500, so a group commit's batches share one prepared statement
 * instead of compiling, sending and planning 15 parameters per row.
 */
export function unnestRows<Columns extends Record<string, ColumnType>>(
  columns: Columns,
  param: Param<ColumnArrays<Columns>>,
) {
  return sql`select * from ${unnestArrays(columns, param)}`;
}

/**
 * `unnest((select $1::text[]), (select $2::bigint[]), …)`: one typed array parameter per column. Each array is read
 * through a subquery so that the planner cannot count its elements: a call with 1 row and one with 200 are costed
 * alike, and PostgreSQL moves to the prepared statement's generic plan after five calls. Seeing the arrays, it
 * costed the generic plan (guessing ten rows) above every custom plan of a small batch and planned each call anew.
 */
export function unnestArrays<Columns extends Record<string, ColumnType>>(
  columns: Columns,
  param: Param<ColumnArrays<Columns>>,
) {
  const arrays = Object.entries(columns).map(
    ([name, type]) => sql`(select ${param(name)}::${sql.raw(type)}[])`,
  );
  return sql`unnest(${sql.join(arrays)})`;
}

/** The values of `rows` as unnestArrays takes them: one array per column. */
export function columnArrays<Columns extends Record<string, ColumnType>>(
  columns: Columns,
  rows: ReadonlyArray<{ [K in keyof Columns]: unknown }>,
): ColumnArrays<Columns> {
  const arrays = {} as ColumnArrays<Columns>;
  for (const name of Object.keys(columns) as Array<keyof Columns>)
    arrays[name] = rows.map((row) => row[name]);
  return arrays;
}
