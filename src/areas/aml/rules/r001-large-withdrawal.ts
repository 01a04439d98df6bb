import { AML_RULES } from '../aml.rules.js';
import type { Trip } from './types.js';

const { min_withdrawal_usd_cents } = AML_RULES['R-001'].parameters;

/** R-001 (real time only): the withdrawal under screen is USD 10,000 or more. */
export function largeWithdrawal(input: {
  userId: string;
  withdrawalId: string;
  usdCents: number;
  at: Date;
}): Trip[] {
  if (input.usdCents < min_withdrawal_usd_cents) return [];
  return [
    {
      rule: 'R-001',
      userId: input.userId,
      patternKey: input.withdrawalId,
      at: input.at,
      transactionIds: [input.withdrawalId],
      details: { withdrawal_usd_cents: input.usdCents, threshold_usd_cents: min_withdrawal_usd_cents },
    },
  ];
}
