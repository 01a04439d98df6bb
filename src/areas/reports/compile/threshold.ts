import { formatMoney } from '../../../platform/money.js';
import { rank, type KycTier } from '../../kyc/index.js';
import { THRESHOLD_USD_CENTS } from '../reports.rules.js';
import {
  approvedTiers,
  casesOf,
  groupTransactions,
  thresholdGroups,
  type Period,
  type ThresholdGroup,
} from '../reports.sources.store.js';

const GROUPS_PER_PAGE = 500;

export type ThresholdRow = Record<string, string | number | null>;

/**
 * The threshold report's rows: every succeeded deposit and withdrawal of a (UTC day, player, direction) whose total
 * reaches USD 10,000, one transaction at or over it being enough. Deposits and withdrawals are totalled apart, and a
 * day ends at midnight UTC: the aggregation currency-transaction reports use. USD is the value stored with the event
 * (converted at the rate of its day). Read a page of groups at a time.
 */
export async function* thresholdRows(
  db: Parameters<typeof thresholdGroups>[0],
  period: Period,
): AsyncGenerator<ThresholdRow> {
  let after: ThresholdGroup | null = null;
  for (;;) {
    const groups = await thresholdGroups(db, period, THRESHOLD_USD_CENTS, after, GROUPS_PER_PAGE);
    if (groups.length === 0) return;
    const users = [...new Set(groups.map((g) => g.user_id))];
    const [transactions, tiers, cases] = await Promise.all([
      groupTransactions(db, period, groups),
      approvedTiers(db, period.tenantId, users),
      casesOf(db, period.tenantId, users),
    ]);
    const totals = new Map(groups.map((g) => [`${g.day}|${g.user_id}|${g.event_type}`, g] as const));
    const tierAt = (userId: string, at: Date): KycTier =>
      tiers
        .filter((c) => c.user_id === userId && c.decided_at! <= at)
        .reduce<KycTier>(
          (best, c) => (rank(c.required_tier) > rank(best) ? c.required_tier : best),
          'tier_0',
        );
    // The latest case holding the transaction: its id and status, never its rules (they stay with the staff).
    const caseOf = (userId: string, transactionId: string) =>
      cases.filter((c) => c.user_id === userId && c.transaction_ids.includes(transactionId)).at(-1);
    for (const tx of transactions) {
      const group = totals.get(`${tx.day}|${tx.user_id}|${tx.event_type}`)!;
      const found = caseOf(tx.user_id, tx.transaction_id);
      yield {
        utc_date: tx.day,
        user_id: tx.user_id,
        event_type: tx.event_type,
        trigger: tx.usd_cents >= THRESHOLD_USD_CENTS ? 'single_transaction' : 'same_day_aggregate',
        transaction_id: tx.transaction_id,
        amount: formatMoney(tx.amount_cents, tx.currency, 'decimal'),
        currency: tx.currency,
        amount_minor: tx.amount_cents,
        usd_amount: formatMoney(tx.usd_cents, 'USD', 'decimal'),
        usd_cents: tx.usd_cents,
        occurred_at: tx.occurred_at.toISOString(),
        kyc_tier: tierAt(tx.user_id, tx.occurred_at),
        aml_case_id: found?.case_id ?? null,
        aml_case_status: found?.status ?? null,
        day_total_usd_cents: Number(group.total_usd_cents),
        day_transactions: Number(group.transactions),
      };
    }
    if (groups.length < GROUPS_PER_PAGE) return;
    after = groups[groups.length - 1]!;
  }
}
