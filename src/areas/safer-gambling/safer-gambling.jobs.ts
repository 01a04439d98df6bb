import type { Platform } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import { scheduleJob } from '../../platform/scheduler.js';
import { evaluatePlayer } from './service/evaluate-player.js';

/**
 * Stored work that evaluates SG-005 and SG-006 for a player on the service clock, outside the hot checks: due at
 * once after a limit increase or a breach attempt (subject tenant/user), and while play sessions run, at the moments
 * they would reach the long-play thresholds (subject tenant/user/play, planned again by each evaluation).
 */
export const EVALUATE_JOB = 'safer_gambling.evaluate';

const subjectOf = (tenantId: string, userId: string) => `${tenantId}/${userId}`;
const playSubjectOf = (tenantId: string, userId: string) => `${subjectOf(tenantId, userId)}/play`;

export interface MarkerActivity {
  tenantId: string;
  userId: string;
  /** What happened: a limit's id, a breach attempt's event id, a play session's id. */
  source: string;
  /** Now, on the service clock. */
  at: Date;
}

/** A limit increase was requested or a breach attempt made: SG-005 (and SG-006) are evaluated at once. */
export const markerActivity = (tx: Executor, activity: MarkerActivity) =>
  scheduleJob(tx, {
    kind: EVALUATE_JOB,
    subjectId: subjectOf(activity.tenantId, activity.userId),
    tenantId: activity.tenantId,
    dueAt: activity.at,
    payload: { user_id: activity.userId, source: activity.source },
  });

/** A play session started or ended: SG-006 is evaluated at once, and then planned while sessions run. */
export const playActivity = (tx: Executor, activity: MarkerActivity) =>
  scheduleJob(tx, {
    kind: EVALUATE_JOB,
    subjectId: playSubjectOf(activity.tenantId, activity.userId),
    tenantId: activity.tenantId,
    dueAt: activity.at,
    payload: { user_id: activity.userId, source: activity.source },
  });

export function registerEvaluationJobs(platform: Platform): void {
  platform.scheduler.register(EVALUATE_JOB, async (tx, job, now) => {
    const { user_id: userId, source } = job.payload as { user_id?: string; source?: string };
    if (!job.tenant_id || !userId) return;
    const tenantId = job.tenant_id;
    const next = await evaluatePlayer(
      tx,
      platform,
      { tenantId, userId, source: source ?? job.subject_id },
      now,
    );
    // While a session runs, the play clock's job stays planned for the next threshold moment.
    if (next)
      await scheduleJob(tx, {
        kind: EVALUATE_JOB,
        subjectId: playSubjectOf(tenantId, userId),
        tenantId,
        dueAt: next,
        payload: { user_id: userId, source: source ?? job.subject_id },
      });
  });
}
