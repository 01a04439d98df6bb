import type { LightMyRequestResponse } from 'fastify';
import { totpCode } from '../../src/staff/totp.js';
import type { StaffRole } from '../../src/staff/staff.rules.js';
import type { TestService } from './test-service.js';

export interface TestStaffMember {
  staffId: string;
  email: string;
  displayName: string;
  role: StaffRole;
  /** How tenants' webhooks name this member of staff. */
  reviewerRef: string;
  password: string;
  totpSecret: string;
  /** The last authenticator time step the service accepted from this member (a code works once). */
  lastStep: number;
}

export interface StaffSession {
  member: TestStaffMember;
  cookie: string;
  csrfToken: string;
}

/** What a test service's staff are: its two bootstrap admins, and one signed-in member per role asked for. */
export interface StaffTeam {
  admins: [StaffSession, StaffSession];
  byRole: Map<StaffRole, StaffSession>;
}

const STEP_MS = 30_000;
let counter = 0;

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The hidden field's value in a page: the setup page's TOTP secret, a form's anti-forgery token. */
export function hiddenField(page: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]+)"`).exec(page);
  if (!match) throw new Error(`no hidden ${name} in the page`);
  return match[1]!;
}

const stepAt = (t: TestService) => Math.floor(t.platform.clock.now().getTime() / STEP_MS);

/**
 * The member's next authenticator code: the current step's, or the next step's (the service accepts one step of
 * drift) when the current one was used; the clock moves on only when both were.
 */
export async function nextCode(t: TestService, member: TestStaffMember): Promise<string> {
  if (member.lastStep > stepAt(t)) await t.advance(30);
  const step = Math.max(stepAt(t), member.lastStep + 1);
  member.lastStep = step;
  return totpCode(member.totpSecret, new Date(step * STEP_MS));
}

/**
 * The code the member's authenticator offers next, without spending it (a refused sign-in spends nothing): the
 * current step's, or the next one's when the current one was used.
 */
export function codeFor(t: TestService, member: TestStaffMember): string {
  const step = Math.max(stepAt(t), member.lastStep + 1);
  return totpCode(member.totpSecret, new Date(step * STEP_MS));
}

/** The setup link mailed to this address (the mail outbox keeps it while no SMTP server is configured). */
export async function mailedSetupPath(t: TestService, email: string): Promise<string> {
  const mail = await t.db
    .selectFrom('mail_outbox')
    .select(['text_body'])
    .where('to_address', '=', email)
    .where('purpose', '=', 'staff_setup_link')
    .orderBy('created_at', 'desc')
    .orderBy('mail_id', 'desc')
    .executeTakeFirst();
  const path = /\/console\/setup\/[\w-]+/.exec(mail?.text_body ?? '')?.[0];
  if (!path) throw new Error(`no setup link mailed to ${email}`);
  return path;
}

/** Sets up an account through its mailed one-time link, as its holder would. */
export async function completeSetupByMail(
  t: TestService,
  account: { staffId: string; email: string; displayName: string; role: StaffRole; reviewerRef: string },
): Promise<TestStaffMember> {
  const setupPath = await mailedSetupPath(t, account.email);
  const setupPage = await t.inject({ method: 'GET', url: setupPath });
  const totpSecret = hiddenField(setupPage.body, 'totp_secret');
  const password = `correct horse battery ${++counter}`;
  const step = stepAt(t);
  const done = await t.inject({
    method: 'POST',
    url: setupPath,
    payload: form({ password, totp_secret: totpSecret, code: totpCode(totpSecret, t.platform.clock.now()) }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (done.statusCode !== 200) throw new Error(`setup failed: ${done.statusCode} ${done.body}`);
  return { ...account, password, totpSecret, lastStep: step };
}

/** The two admins a deployment bootstraps with the back-office token; signed in once, kept on the service. */
export async function staffTeam(t: TestService): Promise<StaffTeam> {
  if (t.staffTeam) return t.staffTeam;
  const admins: StaffSession[] = [];
  for (const n of [1, 2]) {
    const email = `admin.${n}.${++counter}@compliance.example`;
    const displayName = `Bootstrap Admin ${n}`;
    const created = await t.backoffice('POST', '/staff', { email, display_name: displayName, role: 'admin' });
    if (created.statusCode !== 201) throw new Error(`bootstrap admin failed: ${created.body}`);
    const { staff_id: staffId, reviewer_ref: reviewerRef } = created.json<{
      staff_id: string;
      reviewer_ref: string;
    }>();
    const member = await completeSetupByMail(t, { staffId, email, displayName, role: 'admin', reviewerRef });
    admins.push(await signInAs(t, member));
  }
  t.staffTeam = { admins: [admins[0]!, admins[1]!], byRole: new Map() };
  return t.staffTeam;
}

/** The session, signed in again when it ended (idle, past its lifetime, or the clock moved on). */
async function live(t: TestService, session: StaffSession): Promise<StaffSession> {
  const check = await asStaff(t, session, 'GET', '/session');
  if (check.statusCode === 200) return session;
  const fresh = await signInAs(t, session.member);
  Object.assign(session, fresh);
  return session;
}

/**
 * A member of staff as a person joins: an admin creates the account in a session; an admin or supervisor account
 * is approved by the second admin; the holder sets it up through the link mailed to them.
 */
export async function createStaffMember(
  t: TestService,
  role: StaffRole,
  options: { email?: string; displayName?: string } = {},
): Promise<TestStaffMember> {
  const team = await staffTeam(t);
  counter += 1;
  const email = options.email ?? `${role}.${counter}@compliance.example`;
  const displayName = options.displayName ?? `${role[0]!.toUpperCase()}${role.slice(1)} ${counter}`;
  const [first, second] = [await live(t, team.admins[0]), await live(t, team.admins[1])];
  const created = await asStaff(t, first, 'POST', '/staff', { email, display_name: displayName, role });
  if (created.statusCode !== 201 && created.statusCode !== 202)
    throw new Error(`staff create failed: ${created.body}`);
  const { staff_id: staffId, reviewer_ref: reviewerRef } = created.json<{
    staff_id: string;
    reviewer_ref: string;
  }>();
  if (created.statusCode === 202) {
    const approved = await asStaff(t, second, 'POST', `/staff/${staffId}/proposal/approve`);
    if (approved.statusCode !== 200) throw new Error(`staff approval failed: ${approved.body}`);
  }
  return completeSetupByMail(t, { staffId, email, displayName, role, reviewerRef });
}

/** One signed-in member of staff of this role for the test service (created on first use, signed in again as needed). */
export async function staffOf(t: TestService, role: StaffRole): Promise<StaffSession> {
  const team = await staffTeam(t);
  const known = team.byRole.get(role);
  if (known) return live(t, known);
  const session = await signInAs(t, await createStaffMember(t, role));
  team.byRole.set(role, session);
  return session;
}

/** Signs in through the console's form; returns the session cookie and its anti-forgery token. */
export async function signInAs(t: TestService, member: TestStaffMember): Promise<StaffSession> {
  const response = await t.inject({
    method: 'POST',
    url: '/console/login',
    payload: form({ email: member.email, password: member.password, code: await nextCode(t, member) }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (response.statusCode !== 303) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const cookie = /console_session=([^;]+)/.exec(String(response.headers['set-cookie']))![1]!;
  const session = await t.inject({
    method: 'GET',
    url: '/backoffice/v1/session',
    headers: { cookie: `console_session=${cookie}` },
  });
  return { member, cookie, csrfToken: session.json<{ csrf_token: string }>().csrf_token };
}

/** A back-office API call through a staff session (cookie plus the anti-forgery header on a change). */
export function asStaff(
  t: TestService,
  session: StaffSession,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: object,
  options: { csrf?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { cookie: `console_session=${session.cookie}` };
  if (method !== 'GET' && options.csrf !== false) headers['x-csrf-token'] = session.csrfToken;
  return t.inject({ method, url: `/backoffice/v1${url}`, headers, payload: body });
}

/** A console form post through a staff session, with the form's anti-forgery field unless told not to. */
export function postForm(
  t: TestService,
  session: StaffSession,
  url: string,
  fields: Record<string, string>,
  options: { csrf?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const payload = options.csrf === false ? fields : { ...fields, _csrf: session.csrfToken };
  return t.inject({
    method: 'POST',
    url,
    payload: form(payload),
    headers: {
      cookie: `console_session=${session.cookie}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
  });
}
