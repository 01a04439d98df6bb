import { audit } from '../../../platform/audit.js';
import type { TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { requestFingerprint } from '../../../platform/idempotency.js';
import { withTransaction } from '../../../platform/service-context.js';
import type { AccountClosedRequest, AccountClosure } from '../players.schemas.js';
import { insertClosure } from '../players.store.js';
import { accountClosed } from './erasure.js';
import type { PlayerClosureRow } from '../players.tables.js';

const toClosure = (row: PlayerClosureRow): AccountClosure => ({
  user_id: row.user_id,
  closed_at: row.closed_at,
  recorded_at: row.recorded_at,
});

/**
 * Records that a player's account closed (POST /v1/players/{user_id}/closed): the end of the business relationship,
 * from which the clocks of the data kept "from the relationship's end" run (docs/data.md). Once per player of a
 * tenant: the same closed_at again answers the stored one (200), another is 409 account_already_closed. Audited.
 */
export async function recordClosure(
  ctx: TenantContext,
  userId: string,
  input: AccountClosedRequest,
): Promise<{ closure: AccountClosure; created: boolean }> {
  const closedAt = new Date(input.closed_at);
  const requestHash = requestFingerprint({ user_id: userId, closed_at: closedAt.toISOString() });
  return withTransaction(ctx, async (tx, ctx) => {
    const { stored, created } = await insertClosure(tx, {
      tenant_id: ctx.tenantId,
      user_id: userId,
      closed_at: closedAt,
      recorded_at: ctx.clock.now(),
      request_hash: requestHash,
    });
    if (!created) {
      if (stored.request_hash !== requestHash)
        throw new AppError(
          'account_already_closed',
          `The account of ${userId} was recorded closed at ${stored.closed_at.toISOString()}`,
        );
      return { closure: toClosure(stored), created: false };
    }
    await audit(tx, ctx, 'player.account_closed', { user_id: userId, closed_at: closedAt.toISOString() });
    await accountClosed(tx, ctx.tenantId, userId, ctx.clock.now());
    return { closure: toClosure(stored), created: true };
  });
}
