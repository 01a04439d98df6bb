import { randomBytes } from 'node:crypto';
import { audit } from '../../platform/audit.js';
import { sha256 } from '../../platform/digest.js';
import type { ServiceContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { withTransaction } from '../../platform/service-context.js';
import { SETUP_LINK_SECONDS, type StaffRole } from '../staff.rules.js';
import * as store from '../staff.store.js';

/** Where a one-time setup link points; the token is shown once and only its hash is kept. */
export const setupPath = (token: string) => `/console/setup/${token}`;

/** An account as staff see it: never its password hash or second-factor secret. */
export function accountView(a: store.StaffAccount) {
  return {
    staff_id: a.staff_id,
    email: a.email,
    display_name: a.display_name,
    role: a.role,
    status: a.status,
    created_at: a.created_at.toISOString(),
    created_by: a.created_by,
    disabled_at: a.disabled_at?.toISOString() ?? null,
  };
}
export type StaffAccountView = ReturnType<typeof accountView>;

async function newSetupLink(tx: ServiceContext['db'], ctx: ServiceContext, staffId: string) {
  const token = randomBytes(24).toString('base64url');
  const now = ctx.clock.now();
  await store.retireSetupLinks(tx, staffId, now);
  const expires_at = new Date(now.getTime() + SETUP_LINK_SECONDS * 1000);
  await store.insertSetupLink(tx, {
    token_hash: sha256(token),
    staff_id: staffId,
    created_at: now,
    expires_at,
  });
  return { setup_path: setupPath(token), setup_link_expires_at: expires_at.toISOString() };
}

/** A named account, invited: its holder sets a password and a second factor through the one-time link returned. */
export function createStaff(
  ctx: ServiceContext,
  input: { email: string; display_name: string; role: StaffRole },
) {
  return withTransaction(ctx, async (tx, ctx) => {
    const email = input.email.trim().toLowerCase();
    const created = await store.insertAccount(tx, {
      staff_id: newId('staff'),
      email,
      display_name: input.display_name.trim(),
      role: input.role,
      status: 'invited',
      created_at: ctx.clock.now(),
      created_by: ctx.actor,
    });
    if (!created) throw new AppError('staff_email_taken', 409, `A staff account with email ${email} exists`);
    const link = await newSetupLink(tx, ctx, created.staff_id);
    await audit(tx, ctx, 'staff.created', { staff_id: created.staff_id, role: created.role });
    return { ...accountView(created), ...link };
  });
}

async function lockExisting(tx: ServiceContext['db'], staffId: string) {
  const found = await store.lockAccount(tx, staffId);
  if (!found) throw new AppError('staff_not_found', 404, `No staff account ${staffId}`);
  return found;
}

/** Disables an account: its sessions end at once and it can no longer sign in. */
export function disableStaff(ctx: ServiceContext, staffId: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockExisting(tx, staffId);
    if (found.status === 'disabled') return accountView(found);
    const now = ctx.clock.now();
    const disabled = await store.updateAccount(tx, staffId, {
      status: 'disabled',
      disabled_at: now,
      disabled_by: ctx.actor,
    });
    await store.endSessionsOf(tx, staffId, now);
    await store.retireSetupLinks(tx, staffId, now);
    await audit(tx, ctx, 'staff.disabled', { staff_id: staffId });
    return accountView(disabled);
  });
}

/**
 * A new one-time link (the old ones stop working): for an invited account whose link lapsed, or to reset a lost
 * password or authenticator. The reset is at once: the password, the authenticator and its last step are cleared and
 * the sessions end, so nobody signs in as the account until its holder completes setup through the new link.
 */
export function issueSetupLink(ctx: ServiceContext, staffId: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockExisting(tx, staffId);
    if (found.status === 'disabled') {
      throw new AppError('staff_not_found', 404, `Staff account ${staffId} is disabled`);
    }
    const reset = await store.updateAccount(tx, staffId, {
      status: 'invited',
      password_hash: null,
      totp_secret: null,
      totp_last_step: null,
    });
    await store.endSessionsOf(tx, staffId, ctx.clock.now());
    const link = await newSetupLink(tx, ctx, staffId);
    await audit(tx, ctx, 'staff.setup_link_issued', { staff_id: staffId, credentials_cleared: true });
    return { ...accountView(reset), ...link };
  });
}

export async function listStaff(ctx: ServiceContext) {
  return (await store.listAccounts(ctx.db)).map(accountView);
}

/**
 * The first admin of an empty service: created on the first start, its setup link printed once beside the other
 * first-start secrets. Undefined when any account exists.
 */
export async function createFirstAdmin(ctx: ServiceContext, email: string) {
  if ((await store.countAccounts(ctx.db)) > 0) return undefined;
  return createStaff(ctx, { email, display_name: 'First admin', role: 'admin' });
}
