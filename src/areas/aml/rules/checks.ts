import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import { precompiled, type Param } from '../../../platform/db/precompiled.js';
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

/** Every check's fragment as one column of one select: one round trip for all of them. */
function checksQuery(checks: Check[]) {
  const columns = checks.map((c, i) => sql`${c.fragment()} as ${sql.ref(`c${i}`)}`);
  return sql<Record<string, unknown>>`select ${sql.join(columns)}`;
}

const decideAll = (checks: Check[], row: Record<string, unknown>) =>
  checks.flatMap((c, i) => c.decide(row[`c${i}`]));

/** Runs any number of checks as one statement (one round trip) and returns every trip they find. */
export async function runChecks(db: Executor, checks: Check[]): Promise<Trip[]> {
  if (checks.length === 0) return [];
  const { rows } = await checksQuery(checks).execute(db);
  return decideAll(checks, rows[0]!);
}

/**
 * A fixed set of checks, its statement compiled once: `checksFor(params)` names the checks, and is called with
 * placeholders once (the fragments, then compiled) and with each call's values (the decisions; no fragment is
 * built). Which checks there are, and their fragments' shape, must not depend on the values.
 */
export function precompiledChecks<Params extends object>(checksFor: (params: Params) => Check[]) {
  const statement = precompiled((_db, param: Param<Params>) => {
    const placeholders = new Proxy({} as Params, { get: (_target, name) => param(name as never) });
    return checksQuery(checksFor(placeholders));
  });
  return async (db: Executor, params: Params): Promise<Trip[]> => {
    const checks = checksFor(params);
    if (checks.length === 0) return [];
    const [row] = await statement.execute(db, params);
    return decideAll(checks, row!);
  };
}
