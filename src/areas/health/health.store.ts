import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/** Whether the database answers a trivial query (false when it fails). */
export function databaseAnswers(db: Executor): Promise<boolean> {
  return sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
}

/** The names of the migrations applied to the database (Kysely's migration table). */
export async function appliedMigrationNames(db: Executor): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  return new Set(rows.map((row) => row.name));
}
