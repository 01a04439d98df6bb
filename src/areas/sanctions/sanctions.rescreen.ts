import type { Transaction } from 'kysely';
import type { Platform } from '../../platform/context.js';
import type { DB } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { ensureJobScheduled, scheduleJob } from '../../platform/scheduler.js';
import type { SanctionsMatcher } from './sanctions.matcher.js';
import { matcherFor, openCase, resultColumns } from './sanctions.service.js';

const matchKey = (m: { list: string; entity_id: string }) => `${m.list}/${m.entity_id}`;

/**
 * Re-screens every clear or cleared user (of one tenant, or all) against the current lists, inside the caller's
 * transaction (matching is in-process). Each re-screened user's checked_at moves to now. A match that a reviewer
 * already dismissed for that user does not reopen a case; any other match moves the user to hit_review_pending
 * with a new case and sanctions.hit. Users of a live tenant whose production matcher is unavailable are skipped
 * (never screened by the stub); naming such a tenant is its 403 or 503.
 */
export async function rescreen(
  platform: Platform,
  tx: Transaction<DB>,
  tenantId?: string,
): Promise<{ screened: number; new_hits: number; skipped: number }> {
  let tenantsQuery = tx.selectFrom('tenants').selectAll();
  if (tenantId) tenantsQuery = tenantsQuery.where('tenant_id', '=', tenantId);
  const tenants = await tenantsQuery.execute();
  if (tenantId && tenants.length === 0) throw new AppError('tenant_not_found', 404, `No tenant ${tenantId}`);
  const matchers = new Map<string, SanctionsMatcher | undefined>();
  for (const tenant of tenants) {
    try {
      const matcher = matcherFor(tenant);
      // The production lists load here, once, so one unavailable matcher skips its tenants instead of failing all.
      await matcher.prepare?.();
      matchers.set(tenant.tenant_id, matcher);
    } catch (error) {
      if (tenantId) throw error;
      matchers.set(tenant.tenant_id, undefined);
    }
  }

  let query = tx
    .selectFrom('sanctions_screens')
    .selectAll()
    .where('status', 'in', ['clear', 'cleared'])
    .orderBy('screen_id')
    .forUpdate();
  if (tenantId) query = query.where('tenant_id', '=', tenantId);
  const screens = await query.execute();
  const now = platform.clock.now();
  const outcome = { screened: 0, new_hits: 0, skipped: 0 };
  for (const screen of screens) {
    const matcher = matchers.get(screen.tenant_id);
    if (!matcher) {
      outcome.skipped++;
      continue;
    }
    outcome.screened++;
    const result = await matcher.screen(screen);
    const dismissed = await tx
      .selectFrom('sanctions_cases')
      .select('matches')
      .where('screen_id', '=', screen.screen_id)
      .where('status', '=', 'cleared')
      .execute();
    const known = new Set(dismissed.flatMap((c) => c.matches.map(matchKey)));
    const fresh = { ...result, matches: result.matches.filter((m) => !known.has(matchKey(m))) };
    const update = tx
      .updateTable('sanctions_screens')
      .where('screen_id', '=', screen.screen_id)
      .returningAll();
    if (fresh.matches.length === 0) {
      const list_versions = JSON.stringify(result.list_versions);
      await update.set({ checked_at: now, updated_at: now, list_versions }).execute();
      continue;
    }
    const held = await update
      .set({ ...resultColumns(fresh, newId('case')), checked_at: now, updated_at: now })
      .executeTakeFirstOrThrow();
    await openCase(tx, held, fresh, 'rescreen', now);
    outcome.new_hits++;
  }
  return outcome;
}

export const QUARTERLY_RESCREEN_JOB = 'sanctions.rescreen_quarterly';
/** A quarter, as a fixed period from the first start (see docs/decisions.md (Sanctions screening)). */
export const QUARTER_SECONDS = 91 * 86_400;
const nextQuarter = (from: Date) => new Date(from.getTime() + QUARTER_SECONDS * 1000);

/** The quarterly bulk re-screen: runs every tenant's re-screening, then schedules the next quarter. */
export async function registerSanctionsJobs(platform: Platform): Promise<void> {
  platform.scheduler.register(QUARTERLY_RESCREEN_JOB, async (tx, _job, now) => {
    const outcome = await rescreen(platform, tx);
    platform.log.info(outcome, 'quarterly sanctions re-screen');
    await scheduleJob(tx, { kind: QUARTERLY_RESCREEN_JOB, subjectId: 'all', dueAt: nextQuarter(now) });
  });
  await ensureJobScheduled(platform.db, {
    kind: QUARTERLY_RESCREEN_JOB,
    subjectId: 'all',
    dueAt: nextQuarter(platform.clock.now()),
  });
}
