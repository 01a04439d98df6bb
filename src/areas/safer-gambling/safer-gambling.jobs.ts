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

/** The one evaluation job of a subject, due at `dueAt` (a later call for the subject moves it). */
const scheduleEvaluation = (tx: Executor, subjectId: string, activity: MarkerActivity, dueAt = activity.at) =>
  scheduleJob(tx, {
    kind: EVALUATE_JOB,
    subjectId,
    tenantId: activity.tenantId,
    dueAt,
    payload: { user_id: activity.userId, source: activity.source },
  });

/** A limit increase was requested or a breach attempt made: SG-005 (and SG-006) are evaluated at once. */
export const markerActivity = (tx: Executor, activity: MarkerActivity) =>
  scheduleEvaluation(tx, subjectOf(activity.tenantId, activity.userId), activity);

/** A play session started or ended: SG-006 is evaluated at once, and then planned while sessions run. */
export const playActivity = (tx: Executor, activity: MarkerActivity) =>
  scheduleEvaluation(tx, playSubjectOf(activity.tenantId, activity.userId), activity);

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
      await scheduleEvaluation(
        tx,
        playSubjectOf(tenantId, userId),
        { tenantId, userId, source: source ?? job.subject_id, at: now },
        next,
      );
  });
}
