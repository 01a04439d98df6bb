import type { Executor } from './db/database.js';

export async function insertSecurityLogEntry(
  db: Executor,
  row: {
    occurred_at: Date;
    reason: string;
    key_prefix: string | null;
    request_id: string;
    remote_ip: string | null;
  },
): Promise<void> {
  await db.insertInto('security_log').values(row).execute();
}

/** Deletes at most `batch` entries older than `cutoff`, oldest first; returns how many went. */
export async function deleteSecurityLogBefore(db: Executor, cutoff: Date, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('security_log')
    .where('security_log_id', 'in', (eb) =>
      eb
        .selectFrom('security_log')
        .select('security_log_id')
        .where('occurred_at', '<', cutoff)
        .orderBy('occurred_at')
        .limit(batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
