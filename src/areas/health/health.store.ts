import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/** Whether the database answers a trivial query (false when it fails). */
export function databaseAnswers(db: Executor): Promise<boolean> {
  return sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
}
