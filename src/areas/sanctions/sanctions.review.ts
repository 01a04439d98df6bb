import type { Transaction } from 'kysely';
import type { Platform } from '../../platform/context.js';
import type { DB } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { emitEvent } from '../../platform/outbox.js';
import { ensureJobScheduled, scheduleJob } from '../../platform/scheduler.js';
import { matcherFor, openCase } from './sanctions.service.js';

/** Staff verbs: the reviewer's decision on a hit, and re-screening of screened users against current lists. */

export async function decideCase(
  platform: Platform,
  caseId: string,
  input: { decision: 'cleared' | 'confirmed'; reviewer: string },
) {
  return platform.db.transaction().execute(async (tx) => {
    const found = await tx
      .selectFrom('sanctions_cases')
      .selectAll()
      .where('case_id', '=', caseId)
      .forUpdate()
      .executeTakeFirst();
    if (!found) throw new AppError('case_not_found', 404, `No sanctions case ${caseId}`);
    if (found.status !== 'hit_review_pending') {
      throw new AppError('case_already_decided', 409, `Case ${caseId} was already ${found.status}`);
    }
    const now = platform.clock.now();
    const cleared = input.decision === 'cleared';
    const decided = await tx
      .updateTable('sanctions_cases')
      .set({ status: input.decision, decided_at: now, reviewer: input.reviewer })
      .where('case_id', '=', caseId)
      .returningAll()
      .executeTakeFirstOrThrow();
    // Cleared lifts the holds; confirmed keeps everything held: the account is terminated and funds frozen.
    await tx
      .updateTable('sanctions_screens')
      .set({ status: input.decision, transactions_held: !cleared, updated_at: now })
      .where('screen_id', '=', found.screen_id)
      .execute();
    const data = {
      case_id: caseId,
      user_id: found.user_id,
      reviewer: input.reviewer,
      transactions_held: !cleared,
    };
    const tenantIds = found.tenant_id;
    if (cleared) {
      await emitEvent(tx, { tenantIds, event: 'sanctions.cleared', data, at: now });
    } else {
      await emitEvent(tx, { tenantIds, event: 'sanctions.confirmed', data, at: now });
      await emitEvent(tx, {
        tenantIds,
        event: 'sanctions.account_frozen',
        data: { ...data, funds_frozen: true },
        at: now,
      });
    }
    return decided;
  });
}

/**
 * Re-screens every clear or cleared user (of one tenant, or all) against the current lists, inside the caller's
 * transaction (matching is in-process). A match that a reviewer already dismissed for that user does not reopen
 * a case; any other match does.
 */
export async function rescreen(
  platform: Platform,
  tx: Transaction<DB>,
  tenantId?: string,
): Promise<{ screened: number; new_hits: number }> {
  let query = tx
    .selectFrom('sanctions_screens')
    .selectAll()
    .where('status', 'in', ['clear', 'cleared'])
    .forUpdate();
  if (tenantId) query = query.where('tenant_id', '=', tenantId);
  const screens = await query.orderBy('screen_id').execute();
  const tenants = new Map(
    (await tx.selectFrom('tenants').selectAll().execute()).map((t) => [t.tenant_id, t]),
  );
  const now = platform.clock.now();

  let screened = 0;
  let newHits = 0;
  for (const screen of screens) {
    let matcher;
    try {
      matcher = matcherFor(tenants.get(screen.tenant_id)!);
    } catch {
      continue; // A live tenant without its production matcher is skipped, never screened by the stub.
    }
    screened++;
    const result = await matcher.screen(screen);
    const dismissed = await tx
      .selectFrom('sanctions_cases')
      .select('matches')
      .where('screen_id', '=', screen.screen_id)
      .where('status', '=', 'cleared')
      .execute();
    const known = new Set(dismissed.flatMap((c) => c.matches.map((m) => `${m.list}/${m.entity_id}`)));
    const fresh = result.matches.filter((m) => !known.has(`${m.list}/${m.entity_id}`));
    if (fresh.length === 0) continue;
    await openCase(tx, screen, { ...result, matches: fresh }, 'rescreen', now);
    newHits++;
  }
  return { screened, new_hits: newHits };
}

export const QUARTERLY_RESCREEN_JOB = 'sanctions.rescreen_quarterly';
const QUARTER_DAYS = 91;

/** The quarterly bulk re-screen: runs every tenant's re-screening, then schedules the next quarter. */
export async function registerSanctionsJobs(platform: Platform): Promise<void> {
  platform.scheduler.register(QUARTERLY_RESCREEN_JOB, async (tx, _job, now) => {
    await rescreen(platform, tx);
    await scheduleJob(tx, {
      kind: QUARTERLY_RESCREEN_JOB,
      subjectId: 'all',
      dueAt: new Date(now.getTime() + QUARTER_DAYS * 86_400_000),
    });
  });
  await ensureJobScheduled(platform.db, {
    kind: QUARTERLY_RESCREEN_JOB,
    subjectId: 'all',
    dueAt: new Date(platform.clock.now().getTime() + QUARTER_DAYS * 86_400_000),
  });
}
