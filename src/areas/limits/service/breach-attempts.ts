import type { Executor } from '../../../platform/db/database.js';
import { eventsOfUser, type WebhookEnvelope } from '../../../platform/outbox.js';
import type { LimitKind } from '../limits.rules.js';

/** A rejected check as staff read it, from its limit.breach_attempt event. */
export interface BreachAttempt {
  event_id: string;
  at: Date;
  /** deposit for a rejected deposit (its event names no kind, as the spec's), loss or wager for a rejected stake. */
  limit_kind: LimitKind;
  limit_type: string;
  limit_id: string | null;
  amount_cents: number;
  currency: string;
  limit_amount_cents: number | null;
  already_spent_cents: number | null;
}

/** The fields every limit.breach_attempt carries (the deposit check's and the wager check's). */
interface BreachData {
  limit_kind?: LimitKind;
  breached_limit_type: string;
  limit_id?: string;
  amount_cents: number;
  currency: string;
  limit_amount_cents?: number;
  already_spent_cents?: number;
}

/**
 * A player's breach attempts of every kind, newest first (`max` at most), and how many there are in all: the
 * limit.breach_attempt events the checks wrote in the outbox, kept there as sent.
 */
export async function breachAttemptsOfUser(
  db: Executor,
  tenantId: string,
  userId: string,
  max: number,
): Promise<{ total: number; attempts: BreachAttempt[] }> {
  const rows = await eventsOfUser(db, tenantId, userId, 'limit.breach_attempt', max);
  const attempts = rows.map((row): BreachAttempt => {
    const { data } = JSON.parse(row.payload) as WebhookEnvelope<BreachData>;
    return {
      event_id: row.event_id,
      at: row.created_at,
      limit_kind: data.limit_kind ?? 'deposit',
      limit_type: data.breached_limit_type,
      limit_id: data.limit_id ?? null,
      amount_cents: data.amount_cents,
      currency: data.currency,
      limit_amount_cents: data.limit_amount_cents ?? null,
      already_spent_cents: data.already_spent_cents ?? null,
    };
  });
  return { total: Number(rows[0]?.total ?? 0), attempts };
}
