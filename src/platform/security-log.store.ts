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
