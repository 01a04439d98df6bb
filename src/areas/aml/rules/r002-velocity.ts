import { AML_RULES } from '../aml.rules.js';
import { check, type Check } from '../statements/checks.js';
import { windowTotals } from '../statements/history.js';
import type { HistoryPoint } from './types.js';

const { parameters, counts } = AML_RULES['R-002'];
const { min_deposits, window_seconds } = parameters;

/** 5 or more deposit attempts in (T − 1 hour, T], declined or pending ones included. */
export function velocity(p: HistoryPoint): Check {
  return check(
    () => windowTotals(p, { seconds: window_seconds, types: ['deposit'], counts }),
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
