import { randomBytes } from 'node:crypto';
import { audit, recordSecurityEvent } from '../../platform/audit.js';
import type { ServiceContext, StaffMember } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { SealedValueError, type Secrets } from '../../platform/secrets.js';
import { withTransaction } from '../../platform/service-context.js';
import { UNMATCHABLE_HASH, verifyPassword } from '../passwords.js';
import { LOCKOUT_SECONDS, MAX_FAILED_SIGN_INS, SESSION_IDLE_SECONDS } from '../staff.rules.js';
import * as store from '../staff.store.js';
import { acceptedStep } from '../totp.js';
import { sha256 } from '../../platform/digest.js';
import { TOTP_PURPOSE } from './setup.js';

/** One message for every failure, so a sign-in form tells nobody which of the three was wrong. */
const refused = () =>
  new AppError(
    'sign_in_failed',
    401,
    'The email, password or authentication code is not right, or the account is locked',
  );

/** A last_seen_at write at most once a minute: each request need not write. */
const TOUCH_EVERY_MS = 60_000;

async function recordFailure(
  ctx: ServiceContext,
  remoteIp: string | null,
  account: store.StaffAccount | undefined,
) {
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx, ctx) => {
    await recordSecurityEvent(tx, {
      reason: 'staff_sign_in_failed',
      keyPrefix: null,
      requestId: ctx.requestId ?? 'none',
      remoteIp,
      at: now,
    });
    if (!account) return;
    const failed = account.failed_logins + 1;
    const locks = failed >= MAX_FAILED_SIGN_INS;
    await store.updateAccount(tx, account.staff_id, {
      failed_logins: locks ? 0 : failed,
      ...(locks ? { locked_until: new Date(now.getTime() + LOCKOUT_SECONDS * 1000) } : {}),
    });
    await audit(
      tx,
      { ...ctx, actor: account.staff_id },
      locks ? 'staff.locked_out' : 'staff.sign_in_failed',
      {
        staff_id: account.staff_id,
      },
    );
  });
}

/**
 * The account's authenticator secret. One that does not open (copied from another account's row, or altered) refuses
 * the sign-in with an error of its own, audited for the admins: it is reached only with the right password, and
 * only a new setup link mends it.
 */
async function openTotpSecret(ctx: ServiceContext, secrets: Secrets, account: store.StaffAccount) {
  try {
    return secrets.decrypt(TOTP_PURPOSE, account.staff_id, account.totp_secret!);
  } catch (error) {
    if (!(error instanceof SealedValueError)) throw error;
    await audit(ctx.db, { ...ctx, actor: account.staff_id }, 'staff.authenticator_unreadable', {
      staff_id: account.staff_id,
    });
    throw new AppError(
      'stored_secret_unreadable',
      500,
      "The service cannot read this account's authenticator key: ask an admin for a new setup link",
    );
  }
}

/**
 * Signs a member of staff in with password and authenticator code. A new session id is issued every time (a
 * session id planted before sign-in is never promoted). Returns the cookie's value, shown once; only its hash is kept.
 */
export async function signIn(
  ctx: ServiceContext,
  secrets: Secrets,
  input: { email: string; password: string; code: string; remoteIp: string | null },
): Promise<{ sessionId: string; member: StaffMember }> {
  const now = ctx.clock.now();
  const account = await store.findAccountByEmail(ctx.db, input.email.trim().toLowerCase());
  const passwordOk = await verifyPassword(input.password, account?.password_hash ?? UNMATCHABLE_HASH);
  const usable =
    account && account.status === 'active' && !(account.locked_until && account.locked_until > now);
  const step =
    usable && passwordOk && account.totp_secret
      ? acceptedStep(await openTotpSecret(ctx, secrets, account), input.code, now)
      : undefined;
  // A code is accepted once: a step at or before the last accepted one is a replay.
  if (!usable || step === undefined || step <= Number(account.totp_last_step ?? -1)) {
    await recordFailure(ctx, input.remoteIp, account);
    throw refused();
  }
  const sessionId = randomBytes(32).toString('base64url');
  const csrf_token = randomBytes(24).toString('base64url');
  await withTransaction(ctx, async (tx, ctx) => {
    await store.updateAccount(tx, account.staff_id, {
      totp_last_step: String(step),
      failed_logins: 0,
      locked_until: null,
    });
    await store.insertSession(tx, {
      session_hash: sha256(sessionId),
      staff_id: account.staff_id,
      csrf_token,
      created_at: now,
      last_seen_at: now,
    });
    await audit(tx, { ...ctx, actor: account.staff_id }, 'staff.signed_in', { staff_id: account.staff_id });
  });
  const { staff_id, email, display_name, role } = account;
  return { sessionId, member: { staff_id, email, display_name, role, csrf_token } };
}

/**
 * The member of staff a session cookie belongs to, or undefined when it is unknown, ended, idle past
 * SESSION_IDLE_SECONDS, or its account is no longer active (a disabled account's sessions stop at once).
 */
export async function resolveSession(
  ctx: ServiceContext,
  sessionId: string,
): Promise<StaffMember | undefined> {
  const sessionHash = sha256(sessionId);
  const found = await store.findSession(ctx.db, sessionHash);
  if (!found || found.ended_at || found.status !== 'active') return undefined;
  const now = ctx.clock.now();
  const idleMs = now.getTime() - found.last_seen_at.getTime();
  if (idleMs >= SESSION_IDLE_SECONDS * 1000) {
    await store.endSession(ctx.db, sessionHash, now);
    return undefined;
  }
  if (idleMs >= TOUCH_EVERY_MS) await store.touchSession(ctx.db, sessionHash, now);
  const { staff_id, email, display_name, role, csrf_token } = found;
  return { staff_id, email, display_name, role, csrf_token };
}

export async function signOut(ctx: ServiceContext, sessionId: string): Promise<void> {
  await store.endSession(ctx.db, sha256(sessionId), ctx.clock.now());
}
