import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { emitEvent } from '../../platform/outbox.js';
import type { SanctionsCase, SanctionsCaseStatus } from './sanctions.tables.js';

/** Staff verbs: the review cases (the only place matched entities appear) and the reviewer's decision on a hit. */

export async function listCases(
  platform: Platform,
  filter: { status?: SanctionsCaseStatus | undefined; tenant_id?: string | undefined; limit: number },
): Promise<SanctionsCase[]> {
  let query = platform.db
    .selectFrom('sanctions_cases')
    .selectAll()
    .orderBy('opened_at', 'desc')
    .orderBy('case_id', 'desc')
    .limit(filter.limit);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.tenant_id) query = query.where('tenant_id', '=', filter.tenant_id);
  return query.execute();
}

export async function findCase(platform: Platform, caseId: string): Promise<SanctionsCase> {
  const found = await platform.db
    .selectFrom('sanctions_cases')
    .selectAll()
    .where('case_id', '=', caseId)
    .executeTakeFirst();
  if (!found) throw new AppError('case_not_found', 404, `No sanctions case ${caseId}`);
  return found;
}

/**
 * A reviewer's decision, from hit_review_pending only. cleared lifts the holds (sanctions.cleared); confirmed
 * keeps them and freezes the account (sanctions.confirmed, then sanctions.account_frozen).
 */
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
    // sanctions.cleared's data exactly as the spec; the confirmed events share it.
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

// The composition root (src/service.ts) wires the quarterly job from here.
