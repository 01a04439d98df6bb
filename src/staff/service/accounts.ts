import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { audit } from '../../platform/audit.js';
import type { Platform, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import { sha256 } from '../../platform/digest.js';
import { AppError } from '../../platform/errors.js';
import * as fourEyes from '../../platform/four-eyes.js';
import { newId } from '../../platform/ids.js';
import { queueMail } from '../../platform/mail/mail.js';
import { withTransaction } from '../../platform/service-context.js';
import { setupLinkMail } from '../staff.mail.js';
import { APPROVER_ROLES, SETUP_LINK_SECONDS, type StaffRole } from '../staff.rules.js';
import * as store from '../staff.store.js';

/**
 * Staff accounts (docs/console.md#accounts). Two people, as far as the service can know, stand behind every
 * four-eyes decision, so no one admin may make a second identity: a setup link goes by mail to its invitee only,
 * and an account that can approve decisions (admin, supervisor) exists only once a second admin approves it. The
 * back-office token creates accounts only to bootstrap a deployment's first two admins.
 */

/** Where a one-time setup link points; the token is sent once and only its hash is kept. */
export const setupPath = (token: string) => `/console/setup/${token}`;

/** How many admins the back-office token may bootstrap; past that, accounts are an admin's work in a session. */
export const BOOTSTRAP_ADMINS = 2;

/** An account as staff see it: never its password hash or second-factor secret. */
export function accountView(a: store.StaffAccount, pending?: fourEyes.DecisionProposal) {
  const iso = (at: Date | null) => at?.toISOString() ?? null;
  return {
    staff_id: a.staff_id,
    email: a.email,
    display_name: a.display_name,
    role: a.role,
    status: a.status,
    reviewer_ref: a.reviewer_ref,
    created_at: a.created_at.toISOString(),
    created_by: a.created_by,
    approved_by: a.approved_by,
    approved_at: iso(a.approved_at),
    changed_by: a.changed_by,
    changed_at: iso(a.changed_at),
    disabled_at: iso(a.disabled_at),
    pending_proposal: pending ? fourEyes.proposalView(pending) : null,
  };
}
export type StaffAccountView = ReturnType<typeof accountView>;

/** Replaces the account's setup links with a new one; returns the new link's token. */
async function newSetupLink(tx: Executor, ctx: ServiceContext, staffId: string) {
  const token = randomBytes(24).toString('base64url');
  const now = ctx.clock.now();
  await store.retireSetupLinks(tx, staffId, now);
  await store.insertSetupLink(tx, {
    token_hash: sha256(token),
    staff_id: staffId,
    created_at: now,
    expires_at: new Date(now.getTime() + SETUP_LINK_SECONDS * 1000),
  });
  return token;
}

/** A new setup link, mailed to the account's own address through the outbox, in the caller's transaction. */
async function mailSetupLink(
  platform: Platform,
  tx: Executor,
  ctx: ServiceContext,
  account: store.StaffAccount,
): Promise<void> {
  const token = await newSetupLink(tx, ctx, account.staff_id);
  // Built from PUBLIC_URL, never from a request's Host: a forged Host cannot redirect the invitation.
  const link = `${platform.config.publicUrl}${setupPath(token)}`;
  await queueMail(
    tx,
    setupLinkMail({ to: account.email, displayName: account.display_name, link }),
    ctx.clock.now(),
  );
}

/** A new account's row: its id and its opaque reviewer reference are drawn here, and nowhere else. */
function newAccount(
  ctx: ServiceContext,
  input: { email: string; display_name: string; role: StaffRole; status: 'proposed' | 'invited' },
) {
  return {
    staff_id: newId('staff'),
    ...input,
    created_at: ctx.clock.now(),
    created_by: ctx.actor,
    reviewer_ref: `rvw_${randomBytes(10).toString('hex')}`,
  };
}

const tokenRefused = () =>
  new AppError(
    'staff_session_required',
    `The back-office token creates only the first ${BOOTSTRAP_ADMINS} admins of a deployment: an admin signed in to the console creates every other account`,
  );

/**
 * A named account. Its holder sets a password and an authenticator through a one-time link mailed to them. An admin
 * or supervisor account is only proposed (status proposed, no link) until a second admin approves it.
 */
export function createStaff(
  platform: Platform,
  ctx: ServiceContext,
  input: { email: string; display_name: string; role: StaffRole },
) {
  return withTransaction(ctx, async (tx, ctx) => {
    if (!ctx.staffId) {
      if (input.role !== 'admin' || (await store.countEnabledAdmins(tx)) >= BOOTSTRAP_ADMINS)
        throw tokenRefused();
    }
    const email = input.email.trim().toLowerCase();
    const needsApproval = ctx.staffId !== undefined && APPROVER_ROLES.includes(input.role);
    const created = await store.insertAccount(
      tx,
      newAccount(ctx, {
        email,
        display_name: input.display_name.trim(),
        role: input.role,
        status: needsApproval ? 'proposed' : 'invited',
      }),
    );
    if (!created) throw new AppError('staff_email_taken', `A staff account with email ${email} exists`);
    await audit(tx, ctx, 'staff.created', { staff_id: created.staff_id, role: created.role });
    if (!needsApproval) {
      await mailSetupLink(platform, tx, ctx, created);
      return accountView(created);
    }
    const proposal = await fourEyes.propose(tx, ctx, {
      subject: 'staff',
      subjectId: created.staff_id,
      tenantId: null,
      action: 'create',
      reason: `New ${created.role} account for ${email}`,
    });
    return accountView(created, proposal);
  });
}

async function lockExisting(tx: Executor, staffId: string) {
  const found = await store.lockAccount(tx, staffId);
  if (!found) throw new AppError('staff_not_found', `No staff account ${staffId}`);
  return found;
}

/** Disables an account: its sessions end at once and it can no longer sign in. */
export function disableStaff(ctx: ServiceContext, staffId: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockExisting(tx, staffId);
    if (found.status === 'disabled') return accountView(found);
    if (found.status === 'proposed') {
      throw new AppError(
        'staff_status_conflict',
        `Staff account ${staffId} awaits approval: reject it instead`,
      );
    }
    const now = ctx.clock.now();
    const disabled = await store.updateAccount(tx, staffId, {
      status: 'disabled',
      disabled_at: now,
      disabled_by: ctx.actor,
      changed_by: ctx.actor,
      changed_at: now,
    });
    await store.endSessionsOf(tx, staffId, now);
    await store.retireSetupLinks(tx, staffId, now);
    await audit(tx, ctx, 'staff.disabled', { staff_id: staffId });
    return accountView(disabled);
  });
}

/**
 * Takes a change of an account that needs a second admin when it leaves the account able to approve decisions
 * (re-enabling such an account, raising one to such a role): proposes it, or applies it at once when it does not.
 */
async function changeOrPropose(
  platform: Platform,
  tx: Transaction<DB>,
  ctx: ServiceContext,
  found: store.StaffAccount,
  change: { action: string; role: StaffRole; reason: string },
) {
  if (APPROVER_ROLES.includes(change.role)) {
    const proposal = await fourEyes.propose(tx, ctx, {
      subject: 'staff',
      subjectId: found.staff_id,
      tenantId: null,
      action: change.action,
      reason: change.reason,
    });
    return accountView(found, proposal);
  }
  return accountView(await applyChange(platform, tx, ctx, found, change.action, null));
}

/** Re-enables a disabled account; one with an approver role only once a second admin approves. */
export function enableStaff(platform: Platform, ctx: ServiceContext, staffId: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockExisting(tx, staffId);
    if (found.status !== 'disabled') {
      throw new AppError(
        'staff_status_conflict',
        `Staff account ${staffId} is ${found.status}, not disabled`,
      );
    }
    await fourEyes.requireNoPending(tx, 'staff', staffId);
    return changeOrPropose(platform, tx, ctx, found, {
      action: 'enable',
      role: found.role,
      reason: `Re-enable ${found.role} account ${found.email}`,
    });
  });
}

/**
 * Changes an account's role. Raising it to a role that approves decisions needs a second admin; lowering it, or
 * any other change, applies at once (a session's role is read on every request).
 */
export function setStaffRole(platform: Platform, ctx: ServiceContext, staffId: string, role: StaffRole) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockExisting(tx, staffId);
    if (found.status === 'proposed' || found.status === 'disabled') {
      throw new AppError('staff_status_conflict', `Staff account ${staffId} is ${found.status}`);
    }
    if (found.role === role) return accountView(found);
    await fourEyes.requireNoPending(tx, 'staff', staffId);
    return changeOrPropose(platform, tx, ctx, found, {
      action: `role:${role}`,
      role,
      reason: `Change ${found.email} from ${found.role} to ${role}`,
    });
  });
}

/** The change itself: a proposed account invited (its link mailed), a disabled one re-enabled, a role set. */
async function applyChange(
  platform: Platform,
  tx: Executor,
  ctx: ServiceContext,
  found: store.StaffAccount,
  action: string,
  approvedBy: string | null,
) {
  const now = ctx.clock.now();
  const approval = approvedBy ? { approved_by: approvedBy, approved_at: now } : {};
  if (action === 'create') {
    const invited = await store.updateAccount(tx, found.staff_id, { status: 'invited', ...approval });
    await mailSetupLink(platform, tx, ctx, invited);
    await audit(tx, ctx, 'staff.approved', { staff_id: found.staff_id, role: found.role });
    return invited;
  }
  const changed = { changed_by: ctx.actor, changed_at: now, ...approval };
  if (action === 'enable') {
    // An account that never completed its setup gets a new link; one that did signs in as before.
    const status = found.password_hash ? 'active' : 'invited';
    const enabled = await store.updateAccount(tx, found.staff_id, {
      status,
      disabled_at: null,
      disabled_by: null,
      ...changed,
    });
    if (status === 'invited') await mailSetupLink(platform, tx, ctx, enabled);
    await audit(tx, ctx, 'staff.enabled', { staff_id: found.staff_id });
    return enabled;
  }
  const role = action.slice('role:'.length) as StaffRole;
  const updated = await store.updateAccount(tx, found.staff_id, { role, ...changed });
  await audit(tx, ctx, 'staff.role_changed', { staff_id: found.staff_id, from: found.role, to: role });
  return updated;
}

/** A second admin approves the account's pending change: it takes effect now. */
export function approveStaffChange(platform: Platform, ctx: ServiceContext, staffId: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockExisting(tx, staffId);
    const proposal = await fourEyes.approvePending(tx, ctx, 'staff', staffId);
    return accountView(await applyChange(platform, tx, ctx, found, proposal.action, proposal.decided_by));
  });
}

/** A second admin rejects the account's pending change; a proposed account is removed (the proposal stays). */
export function rejectStaffChange(ctx: ServiceContext, staffId: string, reason: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockExisting(tx, staffId);
    const proposal = await fourEyes.rejectPending(tx, ctx, 'staff', staffId, reason);
    if (proposal.action === 'create') {
      await store.deleteProposedAccount(tx, staffId);
      await audit(tx, ctx, 'staff.removed', { staff_id: staffId });
      return { ...accountView(found), status: 'removed' as const };
    }
    return accountView(found);
  });
}

/**
 * A new one-time link, mailed to the account's holder (the old ones stop working): for an invited account whose
 * link lapsed, or to reset a lost password or authenticator. The reset is at once: the password, the authenticator
 * and its last step are cleared and the sessions end, so nobody signs in as the account until its holder completes
 * setup through the new link.
 */
export function issueSetupLink(platform: Platform, ctx: ServiceContext, staffId: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    const found = await lockExisting(tx, staffId);
    if (found.status === 'disabled' || found.status === 'proposed') {
      throw new AppError('staff_not_found', `Staff account ${staffId} is ${found.status}`);
    }
    const now = ctx.clock.now();
    await store.endSessionsOf(tx, staffId, now);
    const reset = await store.updateAccount(tx, staffId, {
      status: 'invited',
      password_hash: null,
      totp_secret: null,
      totp_last_step: null,
      changed_by: ctx.actor,
      changed_at: now,
    });
    await mailSetupLink(platform, tx, ctx, reset);
    await audit(tx, ctx, 'staff.setup_link_issued', { staff_id: staffId, credentials_cleared: true });
    return accountView(reset);
  });
}

export async function listStaff(ctx: ServiceContext) {
  const accounts = await store.listAccounts(ctx.db);
  const pending = await fourEyes.pendingProposalsFor(
    ctx.db,
    'staff',
    accounts.map((a) => a.staff_id),
  );
  return accounts.map((a) => accountView(a, pending.get(a.staff_id)));
}

/**
 * The first admin of an empty service: created on the first start, its setup link printed once on the machine's
 * console beside the other first-start secrets (nobody else holds it). Undefined when any account exists.
 */
export function createFirstAdmin(ctx: ServiceContext, email: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    if ((await store.countAccounts(tx)) > 0) return undefined;
    const created = await store.insertAccount(
      tx,
      newAccount(ctx, { email, display_name: 'First admin', role: 'admin', status: 'invited' }),
    );
    if (!created) return undefined;
    const token = await newSetupLink(tx, ctx, created.staff_id);
    await audit(tx, ctx, 'staff.created', { staff_id: created.staff_id, role: created.role });
    return { email: created.email, setup_path: setupPath(token) };
  });
}
