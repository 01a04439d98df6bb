import type { TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { insertOnce, requestFingerprint } from '../../../platform/idempotency.js';
import { withTransaction } from '../../../platform/service-context.js';
import { assertUserCurrency } from './currency.js';
import type { CommitRequest } from '../limits.schemas.js';
import { consumeHold, findRelease, lockUser, oldestLiveHold } from '../limits.store.js';
import type { Deposit } from '../limits.tables.js';

/**
 * Records a deposit that went through: the spend the windows sum, by committed_at. It consumes the oldest live
 * hold of the same amount. Idempotent on (tenant, transaction_id): the same deposit again is the original (200);
 * other details under that id are 409.
 */
export async function commitDeposit(
  ctx: TenantContext,
  input: CommitRequest,
): Promise<{ deposit: Deposit; created: boolean }> {
  const tenantId = ctx.tenant.tenant_id;
  const committedAt = new Date(input.committed_at);
  return withTransaction(ctx, async (tx, ctx) => {
    await lockUser(tx, tenantId, input.user_id);
    await assertUserCurrency(tx, tenantId, input.user_id, input.currency);
    const now = ctx.clock.now();
    // The deposit consumes the hold its check placed (from here on the deposit counts instead), unless this
    // transaction was released as failed: then its hold is gone and another deposit's must stay.
    const released = await findRelease(tx, tenantId, input.transaction_id);
    const holdId = released
      ? undefined
      : await oldestLiveHold(tx, tenantId, input.user_id, input.amount_cents, now);
    const result = await insertOnce<Deposit>(tx, {
      table: 'deposits',
      key: ['tenant_id', 'transaction_id'],
      values: {
        tenant_id: tenantId,
        transaction_id: input.transaction_id,
        user_id: input.user_id,
        amount_cents: input.amount_cents,
        currency: input.currency,
        committed_at: committedAt,
        recorded_at: now,
        request_hash: requestFingerprint({
          user_id: input.user_id,
          amount_cents: input.amount_cents,
          currency: input.currency,
          committed_at: committedAt.toISOString(),
        }),
      },
      conflict: () =>
        new AppError(
          'duplicate_transaction',
          `Transaction ${input.transaction_id} was committed with different details`,
        ),
    });
    if (result.created && holdId) {
      await consumeHold(tx, tenantId, input.user_id, holdId, input.transaction_id, now);
    }
    return {
      deposit: { ...result.row, amount_cents: Number(result.row.amount_cents) },
      created: result.created,
    };
  });
}
