import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import type { StaffAccountsTable, StaffSessionsTable } from './staff.tables.js';

export type StaffAccount = Selectable<StaffAccountsTable>;

export function insertAccount(tx: Executor, row: Insertable<StaffAccountsTable>) {
  return tx
    .insertInto('staff_accounts')
    .values(row)
    .onConflict((oc) => oc.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findAccount(db: Executor, staffId: string) {
  return db.selectFrom('staff_accounts').selectAll().where('staff_id', '=', staffId).executeTakeFirst();
}

export function findAccountByEmail(db: Executor, email: string) {
  return db.selectFrom('staff_accounts').selectAll().where('email', '=', email).executeTakeFirst();
}

export function lockAccount(tx: Executor, staffId: string) {
  return tx
    .selectFrom('staff_accounts')
    .selectAll()
    .where('staff_id', '=', staffId)
    .forUpdate()
    .executeTakeFirst();
}

export function listAccounts(db: Executor) {
  return db.selectFrom('staff_accounts').selectAll().orderBy('email').execute();
}

export function countAccounts(db: Executor) {
  return db
    .selectFrom('staff_accounts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
}

/**
 * Takes an authenticator's time step for a sign-in, atomically: only a step later than the last one taken, of an
 * active account. Of two sign-ins with one code, one gets the row back and the other nothing.
 */
export function claimTotpStep(tx: Executor, staffId: string, step: number) {
  return tx
    .updateTable('staff_accounts')
    .set({ totp_last_step: String(step) })
    .where('staff_id', '=', staffId)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', String(step))]))
    .returning('staff_id')
    .executeTakeFirst();
}

export function updateAccount(tx: Executor, staffId: string, changes: Updateable<StaffAccountsTable>) {
  return tx
    .updateTable('staff_accounts')
    .set(changes)
    .where('staff_id', '=', staffId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Display names by staff id, for pages that show who did what. */
export async function displayNames(db: Executor, staffIds: readonly string[]) {
  if (staffIds.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('staff_accounts')
    .select(['staff_id', 'display_name'])
    .where('staff_id', 'in', [...new Set(staffIds)])
    .execute();
  return new Map(rows.map((r) => [r.staff_id, r.display_name]));
}

export function insertSetupLink(
  tx: Executor,
  row: { token_hash: string; staff_id: string; created_at: Date; expires_at: Date },
) {
  return tx.insertInto('staff_setup_links').values(row).execute();
}

/** Ends every unused link of the account: a new link replaces the old ones. */
export function retireSetupLinks(tx: Executor, staffId: string, at: Date) {
  return tx
    .updateTable('staff_setup_links')
    .set({ used_at: at })
    .where('staff_id', '=', staffId)
    .where('used_at', 'is', null)
    .execute();
}

export function lockSetupLink(tx: Executor, tokenHash: string) {
  return tx
    .selectFrom('staff_setup_links')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .forUpdate()
    .executeTakeFirst();
}

export function findSetupLink(db: Executor, tokenHash: string) {
  return db
    .selectFrom('staff_setup_links')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export function insertSession(tx: Executor, row: Insertable<StaffSessionsTable>) {
  return tx.insertInto('staff_sessions').values(row).execute();
}

/** A live session with its account, or undefined. */
export function findSession(db: Executor, sessionHash: string) {
  return db
    .selectFrom('staff_sessions as s')
    .innerJoin('staff_accounts as a', 'a.staff_id', 's.staff_id')
    .select([
      's.session_hash',
      's.csrf_token',
      's.created_at',
      's.last_seen_at',
      's.ended_at',
      'a.staff_id',
      'a.email',
      'a.display_name',
      'a.role',
      'a.status',
    ])
    .where('s.session_hash', '=', sessionHash)
    .executeTakeFirst();
}

export function touchSession(db: Executor, sessionHash: string, at: Date) {
  return db
    .updateTable('staff_sessions')
    .set({ last_seen_at: at })
    .where('session_hash', '=', sessionHash)
    .execute();
}

export function endSession(db: Executor, sessionHash: string, at: Date) {
  return db
    .updateTable('staff_sessions')
    .set({ ended_at: at })
    .where('session_hash', '=', sessionHash)
    .where('ended_at', 'is', null)
    .execute();
}

export function endSessionsOf(tx: Executor, staffId: string, at: Date) {
  return tx
    .updateTable('staff_sessions')
    .set({ ended_at: at })
    .where('staff_id', '=', staffId)
    .where('ended_at', 'is', null)
    .execute();
}

/**
 * Reserves a sign-in attempt at a throttle key, in one statement: counts it as a failure until it succeeds, and sets
 * when the next attempt may come from `waits` (seconds after each consecutive failure; the last repeats). While the
 * key's wait lasts it writes nothing and answers undefined; otherwise the attempt's number in the streak.
 */
export async function reserveSignInAttempt(
  db: Executor,
  keyHash: string,
  now: Date,
  waits: readonly number[],
) {
  const result = await sql<{ failures: number }>`
    insert into staff_sign_in_throttle as t (key_hash, failures, not_before, last_attempt_at)
    values (${keyHash}, 1, ${now}::timestamptz + make_interval(secs => (${waits}::int[])[1]), ${now})
    on conflict (key_hash) do update set
      failures = t.failures + 1,
      not_before = excluded.last_attempt_at
        + make_interval(secs => (${waits}::int[])[least(t.failures + 1, ${waits.length})]),
      last_attempt_at = excluded.last_attempt_at
    where t.not_before <= excluded.last_attempt_at
    returning failures`.execute(db);
  return result.rows[0]?.failures;
}

/** The latest time before which one of these keys takes no attempt. */
export async function signInNotBefore(db: Executor, keyHashes: readonly string[]) {
  const row = await db
    .selectFrom('staff_sign_in_throttle')
    .select((eb) => eb.fn.max('not_before').as('not_before'))
    .where('key_hash', 'in', [...keyHashes])
    .executeTakeFirst();
  return row?.not_before ?? undefined;
}

/** A success ends the keys' streaks. */
export function clearSignInThrottle(tx: Executor, keyHashes: readonly string[]) {
  return tx
    .deleteFrom('staff_sign_in_throttle')
    .where('key_hash', 'in', [...keyHashes])
    .execute();
}

/** Admins whose accounts are not disabled: while fewer than two, the back-office token may bootstrap one. */
export function countEnabledAdmins(db: Executor) {
  return db
    .selectFrom('staff_accounts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('role', '=', 'admin')
    .where('status', '<>', 'disabled')
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
}

export function deleteProposedAccount(tx: Executor, staffId: string) {
  return tx
    .deleteFrom('staff_accounts')
    .where('staff_id', '=', staffId)
    .where('status', '=', 'proposed')
    .execute();
}

/** Who the given staff ids are (name, email, role), for records that must name the people who decided. */
export function identities(db: Executor, staffIds: readonly string[]) {
  if (staffIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('staff_accounts')
    .select(['staff_id', 'display_name', 'email', 'role'])
    .where('staff_id', 'in', [...new Set(staffIds)])
    .execute();
}
