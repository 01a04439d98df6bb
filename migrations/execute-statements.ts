import { sql, type Kysely } from 'kysely';

/** Runs a script one statement at a time: PGlite's extended protocol takes a single statement per query. */
export async function executeStatements(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script.split(/;\s*$/m)) {
    if (statement.trim()) await sql.raw(statement).execute(db);
  }
}
