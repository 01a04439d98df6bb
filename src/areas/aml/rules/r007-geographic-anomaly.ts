import { AML_RULES } from '../aml.rules.js';
import { check, type Check } from '../statements/checks.js';
import { sessionEvents, type SessionEvent } from '../statements/history.js';
import type { HistoryPoint } from './types.js';

const { session_window_seconds } = AML_RULES['R-007'].parameters;

const upper = (value: unknown) =>
  typeof value === 'string' && value.trim() ? value.trim().toUpperCase() : undefined;

/** A login's country is its ip_country; a deposit's is its card_country, else its ip_country. */
export function eventCountry(event: SessionEvent): string | undefined {
  if (event.event_type === 'login') return upper(event.metadata.ip_country);
  return upper(event.metadata.card_country) ?? upper(event.metadata.ip_country);
}

/** Sessions in which a login's country differs from a deposit's, with the transactions that differ. */
export function sessionMismatches(events: SessionEvent[]): Map<string, string[]> {
  const bySession = new Map<string, SessionEvent[]>();
  for (const event of events) {
    const session = event.metadata.session_id;
    if (typeof session !== 'string') continue;
    bySession.set(session, [...(bySession.get(session) ?? []), event]);
  }
  const found = new Map<string, string[]>();
  for (const [session, list] of bySession) {
    const logins = list.filter((e) => e.event_type === 'login' && eventCountry(e));
    const deposits = list.filter((e) => e.event_type === 'deposit' && eventCountry(e));
    const ids = new Set<string>();
    for (const login of logins) {
      for (const deposit of deposits) {
        if (eventCountry(login) === eventCountry(deposit)) continue;
        ids.add(login.transaction_id).add(deposit.transaction_id);
      }
    }
    if (ids.size > 0) found.set(session, [...ids]);
  }
  return found;
}

/**
 * within one session, the login's country differs from a deposit's. Async evaluation passes the event's
 * session and looks 24 hours either side of it; a screen looks at every session of the last 24 hours.
 */
export function geographicAnomaly(p: HistoryPoint, sessionId?: string): Check {
  const fragment = () =>
    sessionEvents(p, {
      secondsBefore: session_window_seconds,
      secondsAfter: sessionId ? session_window_seconds : 0,
      sessionId,
    });
  return check(fragment, (events) =>
    [...sessionMismatches(events)].map(([session, transactionIds]) => ({
      rule: 'R-007' as const,
      userId: p.userId,
      patternKey: session,
      at: p.at,
      transactionIds,
      details: {
        session_id: session,
        countries: events
          .filter((e) => transactionIds.includes(e.transaction_id))
          .map((e) => ({
            transaction_id: e.transaction_id,
            event_type: e.event_type,
            country: eventCountry(e),
          })),
      },
    })),
  );
}
