import { audit } from '../../../platform/audit.js';
import type { Platform, ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { matcherFor } from '../sanctions.matcher.js';
import { AWAITING_REVIEW } from '../sanctions.rules.js';
import type { RescreenUserRequest } from '../sanctions.schemas.js';
import * as store from '../sanctions.store.js';
import { rememberedDismissals } from './dismissals.js';
import { applyRescreen, rescreenBatch, type RescreenOutcome } from './rescreen-batch.js';
import { screeningView } from './screen.js';
import { findTenant } from '../../../platform/tenants.store.js';

/**
 * Re-screens every clear or cleared user (of one tenant, or all) against the current lists, one transaction per
 * batch of users (never one over the whole population). Users of a live tenant whose production matcher is
 * unavailable are skipped; naming such a tenant is its 403, 409 or 503. Within a caller's transaction (ctx.db), the
 * batches commit with it.
 */
export async function rescreen(
  platform: Platform,
  ctx: ServiceContext,
  tenantId?: string,
): Promise<RescreenOutcome> {
  if (tenantId) {
    const tenant = await findTenant(ctx.db, tenantId);
    if (!tenant) throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
    await matcherFor(platform.vendors, tenant).prepare?.();
  }
  const total = { screened: 0, new_hits: 0, skipped: 0 };
  for (let after: string | null = null; ;) {
    const batch = await withTransaction(ctx, (tx) =>
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
 * ctx's actor (the reviewer), the reason and the request id.
 */
export async function rescreenUser(
  platform: Platform,
  ctx: ServiceContext,
  target: { tenantId: string; userId: string },
  input: RescreenUserRequest,
) {
  return withTransaction(ctx, async (tx, ctx) => {
    const screen = await store.lockScreen(tx, target.tenantId, target.userId);
    if (!screen) throw new AppError('screen_not_found', `User ${target.userId} has not been screened`);
    if (screen.status === AWAITING_REVIEW || screen.status === 'confirmed') {
      throw new AppError(
        'rescreen_not_allowed',
        screen.status === 'confirmed'
          ? `User ${target.userId} is confirmed on a list; the decision is final`
          : `User ${target.userId} has case ${screen.case_id} awaiting review; decide it first`,
      );
    }
    // Unlike the bulk re-screen, an unavailable matcher is this request's error (403, 409 or 503), not a skip.
    const tenant = await findTenant(tx, target.tenantId);
    if (!tenant) throw new Error(`The screen of ${target.userId} belongs to no tenant ${target.tenantId}`);
    const matcher = matcherFor(platform.vendors, tenant);
    await matcher.prepare?.();
    // The reviewer acts through ctx; the body's other fields are the reason and the corrections.
    const { reason, ...corrections } = input;
    const subject = { ...screen, ...corrections };
    const result = await matcher.screen(subject);
    const filter = await rememberedDismissals(tx, [screen.screen_id]);
    const now = ctx.clock.now();
    const { screen: after, newHit } = await applyRescreen(
      platform,
      tx,
      screen,
      result,
      filter(screen.screen_id, subject, result),
      now,
      corrections,
    );
    // Which fields were corrected, not their values: the audit log holds no more personal data than it needs.
    await audit(tx, forTenant(ctx, target.tenantId), 'sanctions.user_rescreened', {
      screen_id: screen.screen_id,
      user_id: target.userId,
      reason,
      corrected: Object.keys(corrections),
      status: after.status,
      new_case_id: newHit ? after.case_id : null,
    });
    return screeningView(after);
  });
}

/** The quarterly runs, newest first: what each re-screened so far and whether it finished. */
export async function rescreenRuns(ctx: ServiceContext, limit = 8) {
  return { runs: await store.listRescreenRuns(ctx.db, limit) };
}
