import { ACTIVITY_TYPES, AML_RULES } from '../aml.rules.js';
import { check, type Check } from '../statements/checks.js';
import { r009Window, windowTotals } from '../statements/history.js';
import type { HistoryPoint } from './types.js';

const { parameters, counts } = AML_RULES['R-009'];
const { min_activity_usd_cents, default_window_seconds } = parameters;

/** succeeded deposits, withdrawals and wagers in (T − W, T] total USD 10,000 or more; W is the tenant's window. */
export function aggregateThreshold(p: HistoryPoint): Check {
  return check(
    () =>
      windowTotals(p, {
        seconds: r009Window(p.tenantId, default_window_seconds),
        types: ACTIVITY_TYPES,
        counts,
      }),
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
