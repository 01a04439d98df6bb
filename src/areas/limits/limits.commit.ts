import type { Platform, TenantContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { insertOnce, requestFingerprint } from '../../platform/idempotency.js';
import { assertUserCurrency } from './limits.currency.js';
import type { CommitRequest } from './limits.schemas.js';
import { lockUser } from './limits.store.js';
import type { Deposit } from './limits.tables.js';

/**
 * Records a deposit that went through: the spend the windows sum, by committed_at. Idempotent on (tenant,
 * transaction_id): the same deposit again is the original (200); other details under that id are 409.
 */
export async function commitDeposit(
  platform: Platform,
  ctx: TenantContext,
  input: CommitRequest,
): Promise<{ deposit: Deposit; created: boolean }> {
  const tenantId = ctx.tenant.tenant_id;
  const committedAt = new Date(input.committed_at);
  return platform.db.transaction().execute(async (tx) => {
    await lockUser(tx, tenantId, input.user_id);
    await assertUserCurrency(tx, tenantId, input.user_id, input.currency);
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
        recorded_at: platform.clock.now(),
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
          409,
          `Transaction ${input.transaction_id} was committed with different details`,
        ),
    });
    return {
      deposit: { ...result.row, amount_cents: Number(result.row.amount_cents) },
      created: result.created,
    };
  });
}
