import { sql } from 'kysely';
import type { Executor } from './db/database.js';
import type { Alert } from './db/platform-tables.js';

/** Inserts the alert; false when one with its dedupe key is already there (nothing is written). */
export async function insertAlert(db: Executor, alert: Alert): Promise<boolean> {
  const inserted = await db
    .insertInto('alerts')
    .values({ ...alert, details: JSON.stringify(alert.details) })
    .onConflict((conflict) => conflict.column('dedupe_key').where('dedupe_key', 'is not', null).doNothing())
    .returning('alert_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Newest first; `before` is the alert_id of the last row of the previous page. */
export function selectAlerts(
  db: Executor,
  query: { limit: number; before?: string | undefined; kind?: string | undefined },
): Promise<Alert[]> {
  let select = db.selectFrom('alerts').selectAll();
  if (query.kind) select = select.where('kind', '=', query.kind);
  if (query.before) {
    const before = query.before;
    select = select.where(
      sql<boolean>`(raised_at, alert_id) < (select raised_at, alert_id from alerts where alert_id = ${before})`,
    );
  }
  return select.orderBy('raised_at', 'desc').orderBy('alert_id', 'desc').limit(query.limit).execute();
}
