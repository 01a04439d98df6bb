import { sql, type Insertable, type Transaction } from 'kysely';
import type { Executor } from '../../../platform/db/database.js';
import type { DB } from '../../../platform/db/schema.js';
import type { LimitType } from '../limits.rules.js';
import type { PlaySession, PlaySessionsTable } from '../limits.tables.js';
import { IN_FORCE_FIRST, inForce } from '../statements/shared-rules.js';
import type { Played, PlayTimeLimit } from './play-time.js';

/** Plain queries on play sessions and reality-check settings, always scoped to a tenant. */

/** The stored session, or undefined when another request stored one under this session_id first. */
export function insertSession(
  tx: Transaction<DB>,
  values: Insertable<PlaySessionsTable>,
): Promise<PlaySession | undefined> {
  return tx
    .insertInto('play_sessions')
    .values(values)
    .onConflict((oc) => oc.columns(['tenant_id', 'session_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findSession(
  db: Executor,
  tenantId: string,
  sessionId: string,
): Promise<PlaySession | undefined> {
  return db
    .selectFrom('play_sessions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
}

/** open → ended at `endedAt`, counting up to it; undefined when it had ended already. */
export function markEnded(
  tx: Transaction<DB>,
  tenantId: string,
  sessionId: string,
  endedAt: Date,
): Promise<PlaySession | undefined> {
  return tx
    .updateTable('play_sessions')
    .set({ ended_at: endedAt, counted_until: sql`least(counted_until, ${endedAt}::timestamptz)` })
    .where('tenant_id', '=', tenantId)
    .where('session_id', '=', sessionId)
    .where('ended_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records that the session reached its ends_at, once: undefined if already recorded, or if it ended before then.
 */
export function markLimitReached(
  tx: Transaction<DB>,
  tenantId: string,
  playSessionId: string,
  at: Date,
): Promise<PlaySession | undefined> {
  return tx
    .updateTable('play_sessions')
    .set({ limit_reached_at: at })
    .where('tenant_id', '=', tenantId)
    .where('play_session_id', '=', playSessionId)
    .where('limit_reached_at', 'is', null)
    .where('ends_at', 'is not', null)
    .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>=', eb.ref('ends_at'))]))
    .returningAll()
    .executeTakeFirst();
}

/** The player's allowed sessions still running at `now`: not ended, not at their ends_at, still counting. */
export function runningSessions(
  db: Executor,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<PlaySession[]> {
  return db
    .selectFrom('play_sessions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('allowed', '=', true)
    .where('ended_at', 'is', null)
    .where('limit_reached_at', 'is', null)
    .where('counted_until', '>', now)
    .execute();
}

/** A running session's new ends_at (null: no play_time limit runs out while it counts). */
export async function setEndsAt(
  tx: Transaction<DB>,
  row: PlaySession,
  endsAt: Date | null,
  limitType: LimitType | null,
): Promise<void> {
  await tx
    .updateTable('play_sessions')
    .set({ ends_at: endsAt, limit_type: limitType })
    .where('tenant_id', '=', row.tenant_id)
    .where('play_session_id', '=', row.play_session_id)
    .execute();
}

/** The player's allowed sessions still counting after `since`, each up to where it stops counting. */
export async function countedSessions(
  db: Executor,
  tenantId: string,
  userId: string,
  since: Date,
): Promise<Played[]> {
  const rows = await db
    .selectFrom('play_sessions')
    .select(['started_at', 'counted_until'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('counted_until', '>', since)
    .where('allowed', '=', true)
    .execute();
  return rows.map((r) => ({ start: r.started_at.getTime(), stop: r.counted_until.getTime() }));
}

/** The player's play_time limits in force at `now`, one per type (the due increase first). */
export async function playTimeLimitsInForce(
  db: Executor,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<PlayTimeLimit[]> {
  const result = await sql<{ limit_type: LimitType; amount_seconds: string }>`
    select distinct on (limit_type) limit_type, amount_cents::text as amount_seconds
    from deposit_limits
    where tenant_id = ${tenantId} and user_id = ${userId} and limit_kind = 'play_time'
      and ${inForce(sql`${now}::timestamptz`)}
    order by limit_type, ${IN_FORCE_FIRST}`.execute(db);
  return result.rows.map((r) => ({ limit_type: r.limit_type, amount_seconds: Number(r.amount_seconds) }));
}

export async function playerInterval(
  db: Executor,
  tenantId: string,
  userId: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('player_reality_checks')
    .select('interval_seconds')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.interval_seconds;
}

/** Sets the player's interval; null removes it (the tenant's default applies). */
export async function savePlayerInterval(
  db: Executor,
  tenantId: string,
  userId: string,
  seconds: number | null,
  at: Date,
): Promise<void> {
  if (seconds === null) {
    await db
      .deleteFrom('player_reality_checks')
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .execute();
    return;
  }
  await db
    .insertInto('player_reality_checks')
    .values({ tenant_id: tenantId, user_id: userId, interval_seconds: seconds, updated_at: at })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'user_id']).doUpdateSet({ interval_seconds: seconds, updated_at: at }),
    )
    .execute();
}

export async function tenantDefaultInterval(db: Executor, tenantId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('tenant_reality_checks')
    .select('default_interval_seconds')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row?.default_interval_seconds;
}

/** Sets the tenant's default; null removes it (the service's default applies). */
export async function saveTenantDefaultInterval(
  db: Executor,
  tenantId: string,
  seconds: number | null,
  at: Date,
): Promise<void> {
  if (seconds === null) {
    await db.deleteFrom('tenant_reality_checks').where('tenant_id', '=', tenantId).execute();
    return;
  }
  await db
    .insertInto('tenant_reality_checks')
    .values({ tenant_id: tenantId, default_interval_seconds: seconds, updated_at: at })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({ default_interval_seconds: seconds, updated_at: at }),
    )
    .execute();
}
