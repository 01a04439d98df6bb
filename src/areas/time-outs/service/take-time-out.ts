import { audit } from '../../../platform/audit.js';
import type { TenantScopedContext } from '../../../platform/context.js';
import { newId } from '../../../platform/ids.js';
import { cancelJob } from '../../../platform/scheduler.js';
import { withTransaction } from '../../../platform/service-context.js';
import { emitTimeOutEvent, toTimeOut } from '../time-outs.events.js';
import { END_JOB, endLapsed, scheduleEnd } from '../time-outs.jobs.js';
import { decideTimeOut, DEFAULT_REASON, endsAt } from '../time-outs.rules.js';
import type { TakeTimeOutRequest, TimeOut } from '../time-outs.schemas.js';
import { findActiveRow, insertTimeOut, lockUser, markSuperseded } from '../time-outs.store.js';

/**
 * Takes a time-out from receipt, or extends the one in force (decideTimeOut). A time-out is never shortened or
 * cancelled here: a request that would end no later answers the one in force (200), as does the same duration
 * again (the natural key, tenant, user and duration, while it is active). An extension is a new record that
 * supersedes the one in force, so each request that took effect stays in the history; its end job moves with it.
 * `channel` records where the request came in (the tenant API or a hosted embed) for the reports.
 */
export async function takeTimeOut(
  ctx: TenantScopedContext,
  input: TakeTimeOutRequest,
  channel: 'api' | 'embed' = 'api',
): Promise<{ timeOut: TimeOut; created: boolean }> {
  const tenantId = ctx.tenantId;
  return withTransaction(ctx, async (tx, ctx) => {
    await lockUser(tx, tenantId, input.user_id);
    const now = ctx.clock.now();
    let inForce = await findActiveRow(tx, tenantId, input.user_id);
    if (inForce && inForce.ends_at <= now) {
      await endLapsed(tx, inForce, now);
      inForce = undefined;
    }
    const decision = decideTimeOut(inForce, input.duration, now);
    if (inForce && (decision === 'repeat' || decision === 'keep')) {
      return { timeOut: toTimeOut(inForce), created: false };
    }

    let extended: string | null = null;
    if (inForce && decision === 'extend') {
      // Job first, then the row (the scheduler's lock order); if its end job won the race, this is a fresh start.
      await cancelJob(tx, END_JOB, inForce.time_out_id);
      extended = (await markSuperseded(tx, tenantId, inForce.time_out_id, now))?.time_out_id ?? null;
    }
    const stored = await insertTimeOut(tx, {
      time_out_id: newId('time_out'),
      tenant_id: tenantId,
      user_id: input.user_id,
      duration: input.duration,
      reason: input.reason ?? DEFAULT_REASON,
      initiated_at: input.initiated_at === undefined ? null : new Date(input.initiated_at),
      channel,
      starts_at: now,
      ends_at: endsAt(input.duration, now),
      status: 'active',
      extends_time_out_id: extended,
    });
    await scheduleEnd(tx, stored);
    await emitTimeOutEvent(tx, 'timeout.started', stored, now);
    await audit(tx, ctx, 'timeout.started', {
      time_out_id: stored.time_out_id,
      user_id: stored.user_id,
      duration: stored.duration,
      extends_time_out_id: extended,
    });
    return { timeOut: toTimeOut(stored), created: true };
  });
}
