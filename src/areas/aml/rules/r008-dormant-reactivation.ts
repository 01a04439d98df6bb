import { ACTIVITY_TYPES, AML_RULES } from '../aml.rules.js';
import { check, type Check } from '../statements/checks.js';
import { activityAndReactivation } from '../statements/history.js';
import type { HistoryPoint } from './types.js';

const { parameters, counts } = AML_RULES['R-008'];
const { min_idle_seconds, min_activity_exclusive_usd_cents, window_seconds } = parameters;

/**
 * the user's first succeeded event in (T − 24 h, T] came 90 or more days after their previous one (there must
 * be one), and succeeded deposits, withdrawals and wagers in (T − 24 h, T] total over USD 5,000. Declined or
 * pending attempts neither end a dormancy nor count as activity.
 */
export function dormantReactivation(p: HistoryPoint): Check {
  const fragment = () =>
    activityAndReactivation(p, { seconds: window_seconds, types: ACTIVITY_TYPES, counts });
  return check(fragment, ({ activity, reactivation: found }) => {
    if (activity.usd_cents <= min_activity_exclusive_usd_cents || !found?.previous_at) return [];
    const previous = new Date(found.previous_at);
    const idleSeconds = (new Date(found.first_at).getTime() - previous.getTime()) / 1000;
    if (idleSeconds < min_idle_seconds) return [];
    return [
      {
        rule: 'R-008',
        userId: p.userId,
        patternKey: '',
        cooldownSeconds: window_seconds,
        at: p.at,
        transactionIds: activity.transaction_ids,
        details: {
          idle_seconds: idleSeconds,
          previous_event_at: previous.toISOString(),
          activity_usd_cents: activity.usd_cents,
          window_seconds,
        },
      },
    ];
  });
}
