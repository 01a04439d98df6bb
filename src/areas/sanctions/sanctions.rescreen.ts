import type { Platform } from '../../platform/context.js';
import { recordAudit } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { ensureJobScheduled, scheduleJob } from '../../platform/scheduler.js';
import {
  applyRescreen,
  freshMatches,
  rescreenBatch,
  type RescreenOutcome,
} from './sanctions.rescreen.batch.js';
import { registerSanctionsReviewDeadlines } from './sanctions.review.js';
import type { RescreenUserRequest } from './sanctions.schemas.js';
import { matcherFor, screeningView } from './sanctions.service.js';

/**
 * Re-screens every clear or cleared user (of one tenant, or all) against the current lists, one transaction per
 * batch of users (never one over the whole population). Users of a live tenant whose production matcher is
 * unavailable are skipped; naming such a tenant is its 403, 409 or 503.
 */
export async function rescreen(platform: Platform, tenantId?: string): Promise<RescreenOutcome> {
  if (tenantId) {
    const tenant = await platform.db
      .selectFrom('tenants')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    if (!tenant) throw new AppError('tenant_not_found', 404, `No tenant ${tenantId}`);
    await matcherFor(tenant).prepare?.();
  }
  const total = { screened: 0, new_hits: 0, skipped: 0 };
  for (let after: string | null = null; ;) {
    const batch = await platform.db.transaction().execute((tx) =>
      rescreenBatch(platform, tx, {
        after,
        limit: platform.config.sanctionsRescreenBatchSize,
        ...(tenantId ? { tenantId } : {}),
      }),
    );
    total.screened += batch.screened;
    total.new_hits += batch.new_hits;
    total.skipped += batch.skipped;
    if (!batch.last) return total;
    after = batch.last;
  }
}

/**
 * Staff re-screen one user now, optionally with a corrected name, date of birth or nationality (which replace the
 * stored screen subject). Only a clear or cleared user: a hit awaiting review is decided first, a confirmed one is
 * final. A new match (not one a reviewer already dismissed) opens a case as the bulk re-screen does. Audited with
 * the reviewer, the reason and the request id.
 */
export async function rescreenUser(
  platform: Platform,
  target: { tenantId: string; userId: string },
  input: RescreenUserRequest,
  requestId: string,
) {
  return platform.db.transaction().execute(async (tx) => {
    const screen = await tx
      .selectFrom('sanctions_screens')
      .selectAll()
      .where('tenant_id', '=', target.tenantId)
      .where('user_id', '=', target.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!screen) throw new AppError('screen_not_found', 404, `User ${target.userId} has not been screened`);
    if (screen.status === 'hit_review_pending' || screen.status === 'confirmed') {
      throw new AppError(
        'rescreen_not_allowed',
        409,
        screen.status === 'confirmed'
          ? `User ${target.userId} is confirmed on a list; the decision is final`
          : `User ${target.userId} has case ${screen.case_id} awaiting review; decide it first`,
      );
    }
    // Unlike the bulk re-screen, an unavailable matcher is this request's error (403, 409 or 503), not a skip.
    const tenant = await tx
      .selectFrom('tenants')
      .selectAll()
      .where('tenant_id', '=', target.tenantId)
      .executeTakeFirstOrThrow();
    const matcher = matcherFor(tenant);
    await matcher.prepare?.();
    const { reviewer, reason, ...corrections } = input;
    const result = await matcher.screen({ ...screen, ...corrections });
    const filter = await freshMatches(tx, [screen.screen_id]);
    const now = platform.clock.now();
    const { screen: after, newHit } = await applyRescreen(
      platform,
      tx,
      screen,
      result,
      filter(screen.screen_id, result),
      now,
      corrections,
    );
    await recordAudit(tx, {
      tenantId: target.tenantId,
      actor: reviewer,
      action: 'sanctions.user_rescreened',
      requestId,
      // Which fields were corrected, not their values: the audit log holds no more personal data than it needs.
      details: {
        screen_id: screen.screen_id,
        user_id: target.userId,
        reason,
        corrected: Object.keys(corrections),
        status: after.status,
        new_case_id: newHit ? after.case_id : null,
      },
      at: now,
    });
    return screeningView(after);
  });
}

export const QUARTERLY_RESCREEN_JOB = 'sanctions.rescreen_quarterly';
/** One batch of a quarterly run; the job's subject is the quarter, and it reschedules itself until the run ends. */
export const RESCREEN_BATCH_JOB = 'sanctions.rescreen_batch';
/**
 * The pause between two batches: the scheduler runs every job due now before the worker moves on, so a batch due
 * at once would run the whole population back to back; due a second later, AML evaluation and webhook delivery
 * run between batches.
 */
export const RESCREEN_BATCH_PAUSE_SECONDS = 1;

/** The first instant of the next calendar quarter (1 Jan, 1 Apr, 1 Jul, 1 Oct, 00:00 UTC) after `from`. */
export function nextQuarterStart(from: Date): Date {
  const firstMonthOfNext = Math.floor(from.getUTCMonth() / 3) * 3 + 3;
  return new Date(Date.UTC(from.getUTCFullYear(), firstMonthOfNext, 1));
}

/** `2027-Q1`: the calendar quarter `at` falls in. */
export const quarterOf = (at: Date) => `${at.getUTCFullYear()}-Q${Math.floor(at.getUTCMonth() / 3) + 1}`;

/** The quarterly runs, newest first: what each re-screened so far and whether it finished. */
export async function rescreenRuns(platform: Platform, limit = 8) {
  const runs = await platform.db
    .selectFrom('sanctions_rescreen_runs')
    .select(['quarter', 'started_at', 'total', 'screened', 'new_hits', 'skipped', 'finished_at'])
    .orderBy('started_at', 'desc')
    .limit(limit)
    .execute();
  return { runs };
}

/**
 * The quarterly bulk re-screen. At each quarter's start a run is recorded with its population (clear and cleared
 * users screened before that instant) and its first batch is scheduled; each batch job re-screens up to
 * sanctionsRescreenBatchSize users after the stored cursor in its own transaction, stores the cursor and counts,
 * and schedules the next batch, so a restart resumes where the last committed batch ended. Also registers the
 * review alerts of sanctions hits.
 */
export async function registerSanctionsJobs(platform: Platform): Promise<void> {
  registerSanctionsReviewDeadlines(platform);
  platform.scheduler.register(QUARTERLY_RESCREEN_JOB, async (tx, _job, now) => {
    const quarter = quarterOf(now);
    const population = await tx
      .selectFrom('sanctions_screens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', ['clear', 'cleared'])
      .where('checked_at', '<', now)
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('sanctions_rescreen_runs')
      .values({
        quarter,
        started_at: now,
        total: Number(population.n),
        last_screen_id: null,
        finished_at: null,
      })
      .onConflict((oc) => oc.column('quarter').doNothing())
      .execute();
    await scheduleJob(tx, { kind: RESCREEN_BATCH_JOB, subjectId: quarter, dueAt: now });
    await scheduleJob(tx, { kind: QUARTERLY_RESCREEN_JOB, subjectId: 'all', dueAt: nextQuarterStart(now) });
  });
  platform.scheduler.register(RESCREEN_BATCH_JOB, async (tx, job, now) => {
    const run = await tx
      .selectFrom('sanctions_rescreen_runs')
      .selectAll()
      .where('quarter', '=', job.subject_id)
      .forUpdate()
      .executeTakeFirst();
    if (!run || run.finished_at) return;
    const limit = platform.config.sanctionsRescreenBatchSize;
    const batch = await rescreenBatch(platform, tx, {
      after: run.last_screen_id,
      limit,
      checkedBefore: run.started_at,
    });
    const finished = batch.last === null || batch.screened + batch.skipped < limit;
    await tx
      .updateTable('sanctions_rescreen_runs')
      .set({
        screened: run.screened + batch.screened,
        new_hits: run.new_hits + batch.new_hits,
        skipped: run.skipped + batch.skipped,
        last_screen_id: batch.last ?? run.last_screen_id,
        finished_at: finished ? now : null,
      })
      .where('quarter', '=', run.quarter)
      .execute();
    if (finished) {
      const totals = {
        screened: run.screened + batch.screened,
        new_hits: run.new_hits + batch.new_hits,
        skipped: run.skipped + batch.skipped,
      };
      platform.log.info({ quarter: run.quarter, ...totals }, 'quarterly sanctions re-screen finished');
      return;
    }
    await scheduleJob(tx, {
      kind: RESCREEN_BATCH_JOB,
      subjectId: run.quarter,
      dueAt: new Date(now.getTime() + RESCREEN_BATCH_PAUSE_SECONDS * 1000),
    });
  });
  await ensureJobScheduled(platform.db, {
    kind: QUARTERLY_RESCREEN_JOB,
    subjectId: 'all',
    dueAt: nextQuarterStart(platform.clock.now()),
  });
}
