import { sql, type Insertable } from 'kysely';
import type { Executor } from './db/database.js';
import type { ProcessLoadTable } from './db/platform-tables.js';

/** Writes a process's sample over its previous one; rows of processes gone a day are dropped as others write. */
export async function recordProcessLoad(
  db: Executor,
  row: Insertable<ProcessLoadTable>,
  forgetBefore: Date,
): Promise<void> {
  await db
    .insertInto('process_load')
    .values(row)
    .onConflict((oc) =>
      oc.column('process_id').doUpdateSet({ busy: row.busy, sampled_at: row.sampled_at, role: row.role }),
    )
    .execute();
  await db.deleteFrom('process_load').where('sampled_at', '<', forgetBefore).execute();
}

/** The busiest API process and the number of workers among the samples taken since `since`. */
export async function readProcessLoad(db: Executor, since: Date): Promise<{ busy: number; workers: number }> {
  const row = await db
    .selectFrom('process_load')
    .select([
      sql<number | null>`max(busy) filter (where role = 'api')`.as('busy'),
      sql<number>`count(*) filter (where role = 'worker')::int`.as('workers'),
    ])
    .where('sampled_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { busy: Number(row.busy ?? 0), workers: Number(row.workers) };
}
