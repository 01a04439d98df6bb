import { randomBytes } from 'node:crypto';
import { raiseAlert } from '../../platform/alerts.js';
import { audit, recordSecurityEvent } from '../../platform/audit.js';
import { countAuthFailure } from '../../platform/auth-failures.js';
import type { Platform, ServiceContext, StaffMember } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { SealedValueError, type Secrets } from '../../platform/secrets.js';
import { withTransaction } from '../../platform/service-context.js';
import { UNMATCHABLE_HASH, verifyPassword } from '../passwords.js';
import { SESSION_IDLE_SECONDS, SIGN_IN_ALERT_EVERY_FAILURES } from '../staff.rules.js';
import * as store from '../staff.store.js';
import { acceptedStep } from '../totp.js';
import { sha256 } from '../../platform/digest.js';
import { TOTP_PURPOSE } from './setup.js';
import { reserveSignIn } from './sign-in-throttle.js';

/** One message for every failure, so a sign-in form tells nobody which of the three was wrong. */
const refused = () =>
  new AppError('sign_in_failed', 'The email, password or authentication code is not right');

/** The same answer whether the email has an account or not: the wait is kept per email typed. */
const throttled = (waitSeconds: number) =>
  new AppError(
    'rate_limited',
    `Too many attempts to sign in with this email: try again in ${waitSeconds} second${waitSeconds === 1 ? '' : 's'}`,
    undefined,
    waitSeconds,
  );

/** A last_seen_at write at most once a minute: each request need not write. */
const TOUCH_EVERY_MS = 60_000;

/** Password hashes computed by sign-in: what the throttle bounds (GET /backoffice/v1/metrics). */
const passwordChecks = (platform: Platform) =>
  platform.metrics.counter(
    'compliance_staff_password_checks_total',
    'Password hashes computed to check a console sign-in',
  );

/**
 * A failed sign-in that got past the throttle: the security log (never the email or the password), and for an
 * account its audit row; every SIGN_IN_ALERT_EVERY_FAILURES failures in a row at its email raise an alert.
 */
async function recordFailure(
  platform: Platform,
  ctx: ServiceContext,
  remoteIp: string | null,
  account: store.StaffAccount | undefined,
  failuresAtEmail: number,
) {
  const now = ctx.clock.now();
  countAuthFailure(platform.metrics, 'console', 'sign_in_failed');
  await withTransaction(ctx, async (tx, ctx) => {
    await recordSecurityEvent(tx, {
      reason: 'staff_sign_in_failed',
      keyPrefix: null,
      requestId: ctx.requestId ?? 'none',
      remoteIp,
      at: now,
    });
    if (!account) return;
    await audit(tx, { ...ctx, actor: account.staff_id }, 'staff.sign_in_failed', {
      staff_id: account.staff_id,
      failures_in_a_row: failuresAtEmail,
    });
    if (failuresAtEmail % SIGN_IN_ALERT_EVERY_FAILURES !== 0) return;
    await raiseAlert(
      tx,
      platform.log,
      {
        kind: 'staff_sign_in_failures',
        subject: account.staff_id,
        // The message is logged: it names the account by id, never its email.
        message: `${failuresAtEmail} failed sign-ins in a row for the staff account ${account.staff_id}`,
        details: { staff_id: account.staff_id, failures_in_a_row: failuresAtEmail },
      },
      now,
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
      "The service cannot read this account's authenticator key: ask an admin for a new setup link",
    );
  }
}

/**
 * Signs a member of staff in with password and authenticator code. The throttle is reserved first, so that past it
 * no password hash is computed and nothing written. A new session id is issued every time (a session id planted
 * before sign-in is never promoted). Returns the cookie's value, shown once; only its hash is kept.
 */
export async function signIn(
  platform: Platform,
  ctx: ServiceContext,
  input: { email: string; password: string; code: string; remoteIp: string | null },
): Promise<{ sessionId: string; member: StaffMember }> {
  const { secrets } = platform;
  const now = ctx.clock.now();
  const email = input.email.trim().toLowerCase();
  const reservation = await reserveSignIn(ctx.db, email, input.remoteIp, now);
  if (!reservation.reserved) throw throttled(reservation.waitSeconds);
  const account = await store.findAccountByEmail(ctx.db, email);
  // An unknown email costs the same hash as a known one, so timing does not tell them apart.
  passwordChecks(platform).inc();
  const passwordOk = await verifyPassword(input.password, account?.password_hash ?? UNMATCHABLE_HASH);
  const usable = account && account.status === 'active';
  const step =
    usable && passwordOk && account.totp_secret
      ? acceptedStep(await openTotpSecret(ctx, secrets, account), input.code, now)
      : undefined;
  const sessionId = randomBytes(32).toString('base64url');
  const csrf_token = randomBytes(24).toString('base64url');
  const opened =
    usable &&
    step !== undefined &&
    (await withTransaction(ctx, async (tx, ctx) => {
      // A code is accepted once: the step is taken atomically, so of two sign-ins with one code one gets in.
      if (!(await store.claimTotpStep(tx, account.staff_id, step))) return false;
      await store.insertSession(tx, {
        session_hash: sha256(sessionId),
        staff_id: account.staff_id,
        csrf_token,
        created_at: now,
        last_seen_at: now,
      });
      await store.clearSignInThrottle(tx, reservation.keys);
      await audit(tx, { ...ctx, actor: account.staff_id }, 'staff.signed_in', { staff_id: account.staff_id });
      return true;
    }));
  if (!account || !opened) {
    await recordFailure(platform, ctx, input.remoteIp, account, reservation.failuresAtEmail);
    throw refused();
  }
  const { staff_id, display_name, role } = account;
  return { sessionId, member: { staff_id, email: account.email, display_name, role, csrf_token } };
}

/**
 * The member of staff a session cookie belongs to, or undefined when it is unknown, ended, idle past
 * SESSION_IDLE_SECONDS, older than STAFF_SESSION_MAX_HOURS (a working day, however busy), or its account is no
 * longer active (a disabled or reset account's sessions stop at once). Both times are on the service clock.
 */
export async function resolveSession(
  platform: Platform,
  ctx: ServiceContext,
  sessionId: string,
): Promise<StaffMember | undefined> {
  const sessionHash = sha256(sessionId);
  const found = await store.findSession(ctx.db, sessionHash);
  if (!found || found.ended_at || found.status !== 'active') return undefined;
  const now = ctx.clock.now();
  const idleMs = now.getTime() - found.last_seen_at.getTime();
  const ageMs = now.getTime() - found.created_at.getTime();
  if (idleMs >= SESSION_IDLE_SECONDS * 1000 || ageMs >= platform.config.staffSessionMaxHours * 3_600_000) {
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
