import { sql, type RawBuilder } from 'kysely';

/**
 * Two rules of the limits area, written once, in SQL: the hot check embeds them in its one statement, and the store
 * selects them for every TypeScript decision that needs them (setting, cancelling and activating limits, releases).
 */

/**
 * Whether a deposit_limits row is in force at `at`: the active limit, or an increase whose cool-off has elapsed
 * (effective_from has come) even if its activation job has not run yet. Where both are, the increase wins: it
 * replaces the active limit (IN_FORCE_FIRST orders it first).
 */
export const inForce = (at: RawBuilder<unknown>) =>
  sql<boolean>`(status = 'active' or (status = 'pending' and effective_from <= ${at}))`;

/** Of a type's limits in force, the one that counts comes first: the due increase over the limit it replaces. */
export const IN_FORCE_FIRST = sql`status = 'pending' desc`;

/**
 * The one currency a user's money limits and deposits are kept in: the first recorded sets it (null before any;
 * play_time limits have none). The kept-in currency is never mixed with another, so any one row tells.
 */
export const userCurrency = (tenantId: string | RawBuilder<string>, userId: string | RawBuilder<string>) =>
  sql<string | null>`coalesce(
        (select currency from deposit_limits
          where tenant_id = ${tenantId} and user_id = ${userId} and currency is not null limit 1),
        (select currency from deposits where tenant_id = ${tenantId} and user_id = ${userId} limit 1)
      )`;
