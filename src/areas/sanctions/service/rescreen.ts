import { recordAudit } from '../../../platform/audit.js';
import type { Platform } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { matcherFor } from '../sanctions.matcher.js';
import { AWAITING_REVIEW } from '../sanctions.rules.js';
import type { RescreenUserRequest } from '../sanctions.schemas.js';
import * as store from '../sanctions.store.js';
import { applyRescreen, freshMatches, rescreenBatch, type RescreenOutcome } from './rescreen-batch.js';
import { screeningView } from './screen.js';

/**
 * Re-screens every clear or cleared user (of one tenant, or all) against the current lists, one transaction per
 * batch of users (never one over the whole population). Users of a live tenant whose production matcher is
 * unavailable are skipped; naming such a tenant is its 403, 409 or 503.
 */
export async function rescreen(platform: Platform, tenantId?: string): Promise<RescreenOutcome> {
  if (tenantId) {
    const tenant = await store.findTenant(platform.db, tenantId);
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
    const screen = await store.lockScreen(tx, target.tenantId, target.userId);
    if (!screen) throw new AppError('screen_not_found', 404, `User ${target.userId} has not been screened`);
    if (screen.status === AWAITING_REVIEW || screen.status === 'confirmed') {
      throw new AppError(
        'rescreen_not_allowed',
        409,
        screen.status === 'confirmed'
          ? `User ${target.userId} is confirmed on a list; the decision is final`
          : `User ${target.userId} has case ${screen.case_id} awaiting review; decide it first`,
      );
    }
    // Unlike the bulk re-screen, an unavailable matcher is this request's error (403, 409 or 503), not a skip.
    const tenant = await store.findTenant(tx, target.tenantId);
    if (!tenant) throw new Error(`The screen of ${target.userId} belongs to no tenant ${target.tenantId}`);
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

/** The quarterly runs, newest first: what each re-screened so far and whether it finished. */
export async function rescreenRuns(platform: Platform, limit = 8) {
  return { runs: await store.listRescreenRuns(platform.db, limit) };
}
