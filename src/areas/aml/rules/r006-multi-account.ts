import { AML_RULES } from '../aml.rules.js';
import { check, type Check } from './checks.js';
import { fingerprintUsers } from './history.js';

const { min_users } = AML_RULES['R-006'].parameters;

/** At most this many users of one fingerprint are named in one evaluation. */
const MAX_USERS = 100;

/**
 * the fingerprint has been used by 3 or more distinct users of the tenant (the given user counted even
 * when not yet in the history, as at a screen). `everyUser` trips each of those users, not only the given one.
 */
export function multiAccount(input: {
  tenantId: string;
  userId: string;
  fingerprint: string;
  transactionId: string;
  at: Date;
  everyUser: boolean;
}): Check {
  const fragment = fingerprintUsers({
    tenantId: input.tenantId,
    fingerprint: input.fingerprint,
    limit: MAX_USERS,
    // Async: once this user is reported for the fingerprint, every user then known was too, and later users
    // are reported by their own events.
    unlessTripped: input.everyUser ? input.userId : undefined,
  });
  return check(fragment, (found) => {
    const users = new Map(found.map((u) => [u.user_id, u.transaction_id]));
    users.set(input.userId, input.transactionId);
    if (users.size < min_users) return [];
    const tripped = input.everyUser ? [...users.keys()] : [input.userId];
    return tripped.map((userId) => ({
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
