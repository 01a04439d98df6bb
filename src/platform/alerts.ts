import type { FastifyBaseLogger } from 'fastify';
import { insertAlert, selectAlerts } from './alerts.store.js';
import type { Executor } from './db/database.js';
import type { Alert } from './db/platform-tables.js';
import { newId } from './ids.js';

export interface RaisedAlert {
  /** What kind of problem, stable for filtering: `list_fetch_failed`, `list_fetch_refused`, … */
  kind: string;
  /** What it concerns: a source, a case, a tenant. */
  subject: string;
  message: string;
  details?: Record<string, unknown>;
  /**
   * Raise it at most once for this key (a tenant and an hour, say): a condition that recurs on every request must
   * not bury the staff in alerts. Without it, every call raises one.
   */
  dedupeKey?: string;
}

/**
 * Records something a person must look at, and logs it at error level. Pass the business transaction when the
 * alert belongs to a state change, so that both commit or neither does. Undefined: its dedupe key was raised before.
 */
export async function raiseAlert(
  db: Executor,
  log: Pick<FastifyBaseLogger, 'error'>,
  alert: RaisedAlert,
  at: Date,
): Promise<Alert | undefined> {
  const row: Alert = {
    alert_id: newId('alert'),
    kind: alert.kind,
    subject: alert.subject,
    message: alert.message,
    details: alert.details ?? {},
    raised_at: at,
    dedupe_key: alert.dedupeKey ?? null,
  };
  if (!(await insertAlert(db, row))) return undefined;
  log.error({ alert_id: row.alert_id, kind: row.kind, subject: row.subject }, row.message);
  return row;
}

/** Newest first; `before` is the alert_id of the last row of the previous page. */
export function listAlerts(
  db: Executor,
  query: { limit: number; before?: string | undefined; kind?: string | undefined },
): Promise<Alert[]> {
  return selectAlerts(db, query);
}
