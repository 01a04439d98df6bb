import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import type { Trip } from './types.js';

/** One rule's test: a history read (an SQL fragment) and the decision over what it returns. */
export interface Check {
  fragment: RawBuilder<unknown>;
  decide(result: unknown): Trip[];
}

export function check<R>(fragment: RawBuilder<R>, decide: (result: R) => Trip[]): Check {
  return { fragment, decide: decide as (result: unknown) => Trip[] };
}

/** Runs any number of checks as one statement (one round trip) and returns every trip they find. */
export async function runChecks(db: Executor, checks: Check[]): Promise<Trip[]> {
  if (checks.length === 0) return [];
  const columns = checks.map((c, i) => sql`${c.fragment} as ${sql.ref(`c${i}`)}`);
  const { rows } = await sql<Record<string, unknown>>`select ${sql.join(columns)}`.execute(db);
  const row = rows[0]!;
  return checks.flatMap((c, i) => c.decide(row[`c${i}`]));
}
