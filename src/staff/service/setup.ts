import { audit } from '../../platform/audit.js';
import type { ServiceContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { SEALED_PURPOSES, type Secrets } from '../../platform/secrets.js';
import { withTransaction } from '../../platform/service-context.js';
import { hashPassword } from '../passwords.js';
import { MIN_PASSWORD_LENGTH } from '../staff.rules.js';
import * as store from '../staff.store.js';
import { acceptedStep } from '../totp.js';
import { sha256 } from '../../platform/digest.js';

export const TOTP_PURPOSE = SEALED_PURPOSES.staffTotp;

const invalidLink = () =>
  new AppError('setup_link_invalid', 'This setup link is not valid: it was used, replaced or has expired');

/** The account a setup link opens, while the link is unused and unexpired. */
export async function openSetupLink(ctx: ServiceContext, token: string) {
  const link = await store.findSetupLink(ctx.db, sha256(token));
  if (!link || link.used_at || link.expires_at <= ctx.clock.now()) throw invalidLink();
  const account = await store.findAccount(ctx.db, link.staff_id);
  if (!account || account.status === 'disabled') throw invalidLink();
  return account;
}

/**
 * Sets the password and the second factor through a one-time link: the code proves the authenticator holds the
 * secret before it is kept (encrypted). The link is spent; the account becomes active, and every session it had ends.
 */
export function completeSetup(
  ctx: ServiceContext,
  secrets: Secrets,
  input: { token: string; password: string; totp_secret: string; code: string },
) {
  return withTransaction(ctx, async (tx, ctx) => {
    const link = await store.lockSetupLink(tx, sha256(input.token));
    const now = ctx.clock.now();
    if (!link || link.used_at || link.expires_at <= now) throw invalidLink();
    if (input.password.length < MIN_PASSWORD_LENGTH) {
      throw new AppError(
        'invalid_request',
        `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters`,
      );
    }
    const step = acceptedStep(input.totp_secret, input.code, now);
    if (step === undefined) {
      throw new AppError(
        'invalid_request',
        'The authentication code does not match: enter the code your authenticator app shows now',
      );
    }
    const account = await store.updateAccount(tx, link.staff_id, {
      password_hash: await hashPassword(input.password),
      totp_secret: secrets.encrypt(TOTP_PURPOSE, link.staff_id, input.totp_secret),
      totp_last_step: String(step),
      status: 'active',
    });
    await store.retireSetupLinks(tx, link.staff_id, now);
    // Whoever held a session of this account before the new credentials holds none now.
    await store.endSessionsOf(tx, link.staff_id, now);
    await audit(tx, { ...ctx, actor: account.staff_id }, 'staff.setup_completed', {
      staff_id: account.staff_id,
    });
    return account;
  });
}
