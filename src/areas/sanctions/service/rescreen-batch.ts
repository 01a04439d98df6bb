import type { Transaction } from 'kysely';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { newId } from '../../../platform/ids.js';
import type { Vendors } from '../../../platform/vendors.js';
import { matcherFor, type SanctionsMatcher, type ScreeningResult } from '../sanctions.matcher.js';
import { RESCREENABLE_STATUSES } from '../sanctions.rules.js';
import * as store from '../sanctions.store.js';
import type { SanctionsScreen } from '../sanctions.tables.js';
import { rememberedDismissals } from './dismissals.js';
import { openCase, resultColumns } from './screen.js';
import { findTenant } from '../../../platform/tenants.store.js';

export interface RescreenOutcome {
  screened: number;
  new_hits: number;
  skipped: number;
}

/**
 * The tenant's matcher with its lists loaded, or undefined when it is unavailable (a live tenant whose production
 * matcher is not configured or cannot load): such a tenant's users are skipped, never screened by the stub.
 */
export async function readyMatcher(
  vendors: Vendors,
  tx: Transaction<DB>,
  tenantId: string,
): Promise<SanctionsMatcher | undefined> {
  const tenant = await findTenant(tx, tenantId);
  if (!tenant) return undefined;
  try {
    const matcher = matcherFor(vendors, tenant);
    await matcher.prepare?.();
    return matcher;
  } catch {
    return undefined;
  }
}

/**
 * Writes a re-screen's result to the screen: checked_at moves to now; any match not already dismissed moves the
 * user to hit_review_pending with a new case and sanctions.hit. Returns the screen as it now is.
 */
export async function applyRescreen(
  platform: Platform,
  tx: Transaction<DB>,
  screen: SanctionsScreen,
  result: ScreeningResult,
  fresh: ScreeningResult,
  now: Date,
  subject: Partial<Pick<SanctionsScreen, 'first_name' | 'last_name' | 'date_of_birth' | 'nationality'>> = {},
): Promise<{ screen: SanctionsScreen; newHit: boolean }> {
  if (fresh.matches.length === 0) {
    const list_versions = JSON.stringify(result.list_versions);
    const row = await store.updateScreen(tx, screen.screen_id, {
      ...subject,
      checked_at: now,
      updated_at: now,
      list_versions,
    });
    return { screen: row, newHit: false };
  }
  const held = await store.updateScreen(tx, screen.screen_id, {
    ...subject,
    ...resultColumns(fresh, newId('case')),
    checked_at: now,
    updated_at: now,
  });
  await openCase(platform, tx, held, fresh, 'rescreen', now);
  return { screen: held, newHit: true };
}

/**
 * Re-screens the next `limit` clear or cleared users after `after` (screen_id order), in the caller's transaction.
 * Returns the outcome and the last screen_id taken (null when none was left).
 */
export async function rescreenBatch(
  platform: Platform,
  tx: Transaction<DB>,
  batch: { after: string | null; limit: number; tenantId?: string; checkedBefore?: Date },
): Promise<RescreenOutcome & { last: string | null }> {
  const screens = await store.lockScreensBatch(tx, RESCREENABLE_STATUSES, batch);
  const matchers = new Map<string, SanctionsMatcher | undefined>();
  for (const tenantId of new Set(screens.map((s) => s.tenant_id))) {
    matchers.set(tenantId, await readyMatcher(platform.vendors, tx, tenantId));
  }
  const filter = await rememberedDismissals(
    tx,
    screens.map((s) => s.screen_id),
  );
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
    const { newHit } = await applyRescreen(
      platform,
      tx,
      screen,
      result,
      filter(screen.screen_id, screen, result),
      now,
    );
    if (newHit) outcome.new_hits++;
  }
  return { ...outcome, last: screens.at(-1)?.screen_id ?? null };
}
