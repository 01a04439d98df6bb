import { sql } from 'kysely';
import type { Executor } from './database.js';

/** Marks a point in the caller's transaction: a failed step rolls back to it and the rest still commits. */
export async function savepoint(tx: Executor, name: string): Promise<void> {
  await sql`savepoint ${sql.id(name)}`.execute(tx);
}

export async function rollbackToSavepoint(tx: Executor, name: string): Promise<void> {
  await sql`rollback to savepoint ${sql.id(name)}`.execute(tx);
}
