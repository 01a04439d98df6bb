import type { TenantContext } from '../../../platform/context.js';
import { releaseFailedDeposit } from '../../limits/index.js';

/**
 * A deposit reported as failed has been accepted: a new event with metadata.status failed, or a pending one whose
 * outcome is reported as failed; called once per such report (a repeat is a duplicate and does not call it). The
 * event is stored and queued by then. The money never moved: this is the place to free what was set aside for the
 * deposit elsewhere (a deposit limit's reservation).
 */
export async function failedDepositAccepted(
  ctx: TenantContext,
  deposit: { user_id: string; transaction_id: string; amount_cents: number; currency: string },
): Promise<void> {
  // AML itself needs nothing: the value rules skip the deposit by its stored status. The deposit limit's hold on
  // the amount is freed; if this process stops first, the hold lapses on its own (docs/limits.md).
  await releaseFailedDeposit(ctx, deposit);
}
