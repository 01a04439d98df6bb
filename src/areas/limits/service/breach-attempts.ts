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
  /** Null if a check of another shape (none yet) named no money amount. */
  amount_cents: number | null;
  currency: string | null;
  limit_amount_cents: number | null;
  already_spent_cents: number | null;
}

/** The fields of a limit.breach_attempt the staff read (the deposit check's and the wager check's carry them all). */
interface BreachData {
  limit_kind?: LimitKind;
  breached_limit_type: string;
  amount_cents?: number;
  currency?: string;
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
      amount_cents: data.amount_cents ?? null,
      currency: data.currency ?? null,
      limit_amount_cents: data.limit_amount_cents ?? null,
      already_spent_cents: data.already_spent_cents ?? null,
    };
  });
  return { total: Number(rows[0]?.total ?? 0), attempts };
}
