import type { TenantScopedContext } from '../../../platform/context.js';
import { toTimeOut } from '../time-outs.events.js';
import type { TimeOutList } from '../time-outs.schemas.js';
import { timeOutsOfUser } from '../time-outs.store.js';

/** The player's time-outs, newest first, each with its status on the service clock now. */
export async function listTimeOuts(ctx: TenantScopedContext, userId: string): Promise<TimeOutList> {
  const rows = await timeOutsOfUser(ctx.db, ctx.tenantId, userId, ctx.clock.now());
  return {
    user_id: userId,
    time_outs: rows.map((row) => ({
      ...toTimeOut(row),
      status: row.status,
      extends_time_out_id: row.extends_time_out_id,
    })),
  };
}
