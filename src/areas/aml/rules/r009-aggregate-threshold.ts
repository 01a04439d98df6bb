import { sql } from 'kysely';
import { ACTIVITY_TYPES, AML_RULES } from '../aml.rules.js';
import { check, type Check } from './checks.js';
import { windowTotals } from './history.js';
import type { HistoryPoint } from './types.js';

const { parameters, counts } = AML_RULES['R-009'];
const { min_activity_usd_cents, default_window_seconds } = parameters;

/** The tenant's R-009 window, read inside the statement that uses it. */
export const r009Window = (tenantId: string) =>
  sql<number>`coalesce((select r009_window_seconds from aml_settings where tenant_id = ${tenantId}), ${default_window_seconds})`;

/** succeeded deposits, withdrawals and wagers in (T − W, T] total USD 10,000 or more; W is the tenant's window. */
export function aggregateThreshold(p: HistoryPoint): Check {
  return check(
    () => windowTotals(p, { seconds: r009Window(p.tenantId), types: ACTIVITY_TYPES, counts }),
    (activity) =>
      activity.usd_cents < min_activity_usd_cents
        ? []
        : [
            {
              rule: 'R-009',
              userId: p.userId,
              patternKey: '',
              cooldownSeconds: activity.window_seconds,
              at: p.at,
              transactionIds: activity.transaction_ids,
              details: {
                activity_usd_cents: activity.usd_cents,
                events: activity.count,
                window_seconds: activity.window_seconds,
              },
            },
          ],
  );
}
