import { AML_RULES } from '../aml.rules.js';
import { check, type Check } from '../statements/checks.js';
import { fingerprintUsers } from '../statements/history.js';
import { recordedFingerprints } from '../statements/screen-history.js';
import type { HistoryPoint } from './types.js';

const { min_users } = AML_RULES['R-006'].parameters;

/** At most this many users of one fingerprint are named in one evaluation. */
const MAX_USERS = 100;
/** A screen looks at this many of the user's own fingerprints at most. */
const MAX_FINGERPRINTS = 20;

/**
 * R-006 on an event: the event's fingerprint has been used by 3 or more distinct users of the tenant. Every such
 * user trips, not only the event's.
 */
export function multiAccount(input: {
  tenantId: string;
  userId: string;
  fingerprint: string;
  transactionId: string;
  at: Date;
}): Check {
  const fragment = () =>
    fingerprintUsers({
      tenantId: input.tenantId,
      fingerprint: input.fingerprint,
      limit: MAX_USERS,
      // Async: once this user is reported for the fingerprint, every user then known was too, and later users
      // are reported by their own events.
      unlessTripped: input.userId,
    });
  return check(fragment, (found) => {
    const users = new Map(found.map((u) => [u.user_id, u.transaction_id]));
    users.set(input.userId, input.transactionId);
    if (users.size < min_users) return [];
    return [...users.keys()].map((userId) => ({
      rule: 'R-006' as const,
      userId,
      patternKey: input.fingerprint,
      at: input.at,
      transactionIds: [users.get(userId)!],
      details: {
        fingerprint: input.fingerprint,
        users: users.size,
        other_users: [...users.keys()].filter((u) => u !== userId),
      },
    }));
  });
}

/**
 * R-006 at a screen, from the recorded history alone: a fingerprint the user's own recorded events carry is used
 * by 3 or more users of the tenant. The withdrawal under screen does not count (its payment method is not looked
 * at), nor does an event the tenant sent under the withdrawal's id.
 */
export function recordedMultiAccount(p: HistoryPoint): Check {
  const fragment = () => recordedFingerprints(p, { maxFingerprints: MAX_FINGERPRINTS, maxUsers: MAX_USERS });
  return check(fragment, (fingerprints) =>
    fingerprints
      .filter(({ users }) => new Set(users.map((u) => u.user_id)).size >= min_users)
      .map(({ fingerprint, users }) => ({
        rule: 'R-006' as const,
        userId: p.userId,
        patternKey: fingerprint,
        at: p.at,
        transactionIds: users.filter((u) => u.user_id === p.userId).map((u) => u.transaction_id),
        details: {
          fingerprint,
          users: users.length,
          other_users: users.map((u) => u.user_id).filter((u) => u !== p.userId),
        },
      })),
  );
}
