import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import * as store from '../aml.dead-letters.store.js';

/**
 * Puts a dead-lettered event back in the evaluation queue, marks the dead letter re-driven by ctx's actor and writes
 * the audit row, in one transaction. If it fails again it goes through its retries and back to the dead letters.
 */
export async function redriveDeadLetter(
  ctx: ServiceContext,
  deadLetterId: string,
  input: { reason: string },
) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await store.findDeadLetter(tx, deadLetterId, true);
    if (!found) throw new AppError('dead_letter_not_found', `No AML dead letter ${deadLetterId}`);
    if (found.redriven_at) {
      throw new AppError(
        'dead_letter_already_redriven',
        `Dead letter ${deadLetterId} was re-driven at ${found.redriven_at.toISOString()} by ${found.redriven_by}`,
      );
    }
    const now = ctx.clock.now();
    const redriven = await store.markRedriven(tx, deadLetterId, ctx.actor, now);
    await store.requeueEvent(tx, found.event_id, now);
    await audit(tx, forTenant(ctx, found.tenant_id), 'aml.dead_letter_redriven', {
      dead_letter_id: deadLetterId,
      event_id: found.event_id,
      reason: input.reason,
    });
    return redriven;
  });
}
