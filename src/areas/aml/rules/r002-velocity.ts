import { AML_RULES } from '../aml.rules.js';
import { check, type Check } from './checks.js';
import { windowTotals } from './history.js';
import type { HistoryPoint } from './types.js';

const { min_deposits, window_seconds } = AML_RULES['R-002'].parameters;

/** 5 or more deposits in (T − 1 hour, T]. */
export function velocity(p: HistoryPoint): Check {
  return check(
    () => windowTotals(p, { seconds: window_seconds, types: ['deposit'] }),
    (deposits) =>
      deposits.count < min_deposits
        ? []
        : [
            {
              rule: 'R-002',
              userId: p.userId,
              patternKey: '',
              cooldownSeconds: window_seconds,
              at: p.at,
              transactionIds: deposits.transaction_ids,
              details: { deposits: deposits.count, window_seconds },
            },
          ],
  );
}
