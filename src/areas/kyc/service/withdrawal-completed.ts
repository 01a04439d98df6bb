import type { TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { toUsdCents } from '../../../platform/fx.js';
import { insertOnce, requestFingerprint } from '../../../platform/idempotency.js';
import { withTransaction } from '../../../platform/service-context.js';
import type { WithdrawalCompletedRequest } from '../kyc.schemas.js';
import { noRate } from './errors.js';
import { addWithdrawn, lockUser, setCumulativeAfter } from '../kyc.store.js';
import type { KycWithdrawal } from '../kyc.tables.js';

const view = (row: KycWithdrawal) => ({
  withdrawal_id: row.withdrawal_id,
  user_id: row.user_id,
  amount_cents: Number(row.amount_cents),
  currency: row.currency,
  usd_cents: Number(row.usd_cents),
  cumulative_withdrawn_cents: Number(row.cumulative_after_usd_cents),
  completed_at: row.completed_at,
  recorded_at: row.recorded_at,
});

/**
 * A withdrawal cleared end to end: its USD value joins the user's lifetime total, which decides the tier the
 * next start requires. Idempotent on (tenant, withdrawal_id): the same report again answers the original result.
 */
export async function withdrawalCompleted(ctx: TenantContext, input: WithdrawalCompletedRequest) {
  const tenantId = ctx.tenant.tenant_id;
  return withTransaction(ctx, async (tx, ctx) => {
    await lockUser(tx, tenantId, input.user_id);
    const now = ctx.clock.now();
    const usd = await toUsdCents(tx, input.amount_cents, input.currency, noRate);
    const { row, created } = await insertOnce<KycWithdrawal>(tx, {
      table: 'kyc_withdrawals',
      key: ['tenant_id', 'withdrawal_id'],
      values: {
        tenant_id: tenantId,
        withdrawal_id: input.withdrawal_id,
        user_id: input.user_id,
        amount_cents: input.amount_cents,
        currency: input.currency,
        usd_cents: usd,
        // Placeholder until the total is known below; the row is updated in the same transaction.
        cumulative_after_usd_cents: 0,
        completed_at: new Date(input.completed_at),
        recorded_at: now,
        request_hash: requestFingerprint({
          user_id: input.user_id,
          amount_cents: input.amount_cents,
          currency: input.currency,
          completed_at: new Date(input.completed_at).toISOString(),
        }),
      },
      conflict: () =>
        new AppError(
          'duplicate_withdrawal',
          `Withdrawal ${input.withdrawal_id} was reported with different details`,
        ),
    });
    if (!created) return { created, withdrawal: view(row) };
    const cumulative = await addWithdrawn(tx, tenantId, input.user_id, usd, now);
    const stored = await setCumulativeAfter(tx, tenantId, input.withdrawal_id, cumulative);
    return { created, withdrawal: view(stored) };
  });
}
