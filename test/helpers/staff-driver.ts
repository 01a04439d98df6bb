import type { LightMyRequestResponse } from 'fastify';
import { totpCode } from '../../src/staff/totp.js';
import type { StaffRole } from '../../src/staff/staff.rules.js';
import type { TestService } from './test-service.js';

export interface TestStaffMember {
  staffId: string;
  email: string;
  displayName: string;
  role: StaffRole;
  password: string;
  totpSecret: string;
}

export interface StaffSession {
  member: TestStaffMember;
  cookie: string;
  csrfToken: string;
}

let counter = 0;

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The hidden field's value in a page: the setup page's TOTP secret, a form's anti-forgery token. */
export function hiddenField(page: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]+)"`).exec(page);
  if (!match) throw new Error(`no hidden ${name} in the page`);
  return match[1]!;
}

/** The authenticator's code now on the service clock, one step later than `after` when given (a code works once). */
export function codeFor(t: TestService, member: TestStaffMember): string {
  return totpCode(member.totpSecret, t.platform.clock.now());
}

/** A member of staff created through the back office and set up through their one-time link, as a person would. */
export async function createStaffMember(
  t: TestService,
  role: StaffRole,
  options: { email?: string; displayName?: string } = {},
): Promise<TestStaffMember> {
  counter += 1;
  const email = options.email ?? `${role}.${counter}.${Date.now()}@compliance.example`;
  const displayName = options.displayName ?? `${role[0]!.toUpperCase()}${role.slice(1)} ${counter}`;
  const created = await t.backoffice('POST', '/staff', { email, display_name: displayName, role });
  if (created.statusCode !== 201) throw new Error(`staff create failed: ${created.body}`);
  const { staff_id, setup_path } = created.json<{ staff_id: string; setup_path: string }>();
  const setupPage = await t.inject({ method: 'GET', url: setup_path });
  const totpSecret = hiddenField(setupPage.body, 'totp_secret');
  const password = `correct horse battery ${counter}`;
  const done = await t.inject({
    method: 'POST',
    url: setup_path,
    payload: form({ password, totp_secret: totpSecret, code: totpCode(totpSecret, t.platform.clock.now()) }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (done.statusCode !== 200) throw new Error(`setup failed: ${done.statusCode} ${done.body}`);
  // The setup spent this time step's code: sign-in uses the next one.
  await t.advance(30);
  return { staffId: staff_id, email, displayName, role, password, totpSecret };
}

/** Signs in through the console's form; returns the session cookie and its anti-forgery token. */
export async function signInAs(t: TestService, member: TestStaffMember): Promise<StaffSession> {
  const response = await t.inject({
    method: 'POST',
    url: '/console/login',
    payload: form({ email: member.email, password: member.password, code: codeFor(t, member) }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (response.statusCode !== 303) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const cookie = /console_session=([^;]+)/.exec(String(response.headers['set-cookie']))![1]!;
  const session = await t.inject({
    method: 'GET',
    url: '/backoffice/v1/session',
    headers: { cookie: `console_session=${cookie}` },
  });
  // The next sign-in of the same member needs a later code.
  await t.advance(30);
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
