import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import type { EventOf } from '../../platform/events.js';
import { emitEvent } from '../../platform/outbox.js';
import type { Decision } from './sanctions.rules.js';
import type { SanctionsScreen } from './sanctions.tables.js';

/** Every event the sanctions area emits. None names a list or a matched entity (tipping-off). */
export type SanctionsEvent =
  'sanctions.hit' | 'sanctions.cleared' | 'sanctions.confirmed' | 'sanctions.account_frozen';

/** sanctions.hit: counts and the case only; the matched entities stay in the back office. */
export async function emitHit(tx: Transaction<DB>, screen: SanctionsScreen, at: Date): Promise<void> {
  await emitEvent(tx, {
    tenantIds: screen.tenant_id,
    event: 'sanctions.hit' satisfies SanctionsEvent,
    data: {
      screen_id: screen.screen_id,
      case_id: screen.case_id,
      user_id: screen.user_id,
      status: screen.status,
      match_count: screen.match_count,
      highest_match_score: Number(screen.highest_match_score),
      transactions_held: true,
      signup_allowed: true,
    },
    at,
  });
}

/**
 * A reviewer's decision: sanctions.cleared (data exactly as the spec), or sanctions.confirmed then
 * sanctions.account_frozen, which share that data.
 */
export function decisionEvents(
  decision: Decision,
  data: { case_id: string; user_id: string; reviewer: string; transactions_held: boolean },
): EventOf<'sanctions.cleared' | 'sanctions.confirmed' | 'sanctions.account_frozen'>[] {
  if (decision === 'cleared') return [{ event: 'sanctions.cleared', data }];
  return [
    { event: 'sanctions.confirmed', data },
    { event: 'sanctions.account_frozen', data: { ...data, funds_frozen: true as const } },
  ];
}
