import { describe, expect, it } from 'vitest';
import { SESSION_IDLE_SECONDS, STAFF_ROLES } from '../../src/staff/staff.rules.js';
import { totpCode } from '../../src/staff/totp.js';
import {
  asStaff,
  codeFor,
  mailedSetupPath,
  nextCode,
  createStaffMember,
  form,
  hiddenField,
  postForm,
  signInAs,
  staffOf,
  type TestStaffMember,
} from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('staff sessions: sign-in, CSRF, idle and absolute timeouts, sign-out, disabling, reset', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const tenant = await t.createTenant();
    return { t, tenant, admin: await createStaffMember(t, 'admin') };
  });

  const signIn = async (member: TestStaffMember, overrides: Record<string, string> = {}, cookie?: string) =>
    suite.current.t.inject({
      method: 'POST',
      url: '/console/login',
      payload: form({
        email: member.email,
        password: member.password,
        code: await nextCode(suite.current.t, member),
        ...overrides,
      }),
      headers: { ...FORM, ...(cookie ? { cookie: `console_session=${cookie}` } : {}) },
    });
  const consoleGet = (cookie: string, url = '/console') =>
    suite.current.t.inject({ method: 'GET', url, headers: { cookie: `console_session=${cookie}` } });

  it('sets an HttpOnly, SameSite=Strict cookie, and issues a new session id even when one was planted', async () => {
    const { t } = suite.current;
    const member = await createStaffMember(t, 'reviewer');
    const planted = 'planted-session-id-of-an-attacker';
    const response = await signIn(member, {}, planted);
    expect(response.statusCode).toBe(303);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const id = /console_session=([^;]+)/.exec(cookie)![1]!;
    expect(id).not.toBe(planted);
    expect((await consoleGet(planted)).statusCode).toBe(303);
  });

  it('refuses a wrong password, a wrong code and a replayed code with one message, and writes the security log', async () => {
    const { t } = suite.current;
    const member = await createStaffMember(t, 'reviewer');
    const before = await t.db.selectFrom('security_log').select('security_log_id').execute();
    const wrongPassword = await signIn(member, { password: 'not the password at all' });
    const wrongCode = await signIn(member, { code: '000000' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongCode.statusCode).toBe(401);
    expect(wrongPassword.body).toContain('The email, password or authentication code is not right');
    expect(wrongPassword.body).toContain('<label for="email">Email</label>');
    const code = codeFor(t, member);
    expect((await signIn(member, { code })).statusCode).toBe(303);
    // The same code again, in the same 30 seconds: a replay.
    expect((await signIn(member, { code })).statusCode).toBe(401);
    const logged = await t.db
      .selectFrom('security_log')
      .select(['reason', 'key_prefix'])
      .where('security_log_id', 'not in', before.length ? before.map((r) => r.security_log_id) : [-1])
      .execute();
    expect(logged.filter((r) => r.reason === 'staff_sign_in_failed')).toHaveLength(3);
    // Neither the email nor the password is kept in the log.
    expect(JSON.stringify(logged)).not.toContain(member.email);
  });

  it('refuses a state change without the anti-forgery token, on the API and on a console form, and changes nothing', async () => {
    const { t } = suite.current;
    const admin = await signInAs(t, suite.current.admin);
    const noHeader = await asStaff(
      t,
      admin,
      'POST',
      '/staff',
      {
        email: 'csrf@compliance.example',
        display_name: 'Csrf',
        role: 'auditor',
      },
      { csrf: false },
    );
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json()).toMatchObject({ error: 'csrf_token_invalid' });
    const wrongHeader = await t.inject({
      method: 'POST',
      url: '/backoffice/v1/staff',
      headers: { cookie: `console_session=${admin.cookie}`, 'x-csrf-token': 'forged' },
      payload: { email: 'csrf@compliance.example', display_name: 'Csrf', role: 'auditor' },
    });
    expect(wrongHeader.statusCode).toBe(403);
    const noField = await postForm(t, admin, '/console/logout', {}, { csrf: false });
    expect(noField.statusCode).toBe(403);
    const staff = (await t.backoffice('GET', '/staff')).json<{ staff: { email: string }[] }>().staff;
    expect(staff.map((s) => s.email)).not.toContain('csrf@compliance.example');
    // The session still works: the refused logout did not end it.
    expect((await consoleGet(admin.cookie)).statusCode).not.toBe(303);
  });

  it('refuses a sign-in or a form posted from another site', async () => {
    const { t } = suite.current;
    const member = await createStaffMember(t, 'reviewer');
    const crossSite = await t.inject({
      method: 'POST',
      url: '/console/login',
      payload: form({ email: member.email, password: member.password, code: await nextCode(t, member) }),
      headers: { ...FORM, origin: 'https://attacker.example', host: 'console.compliance.example' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.headers['set-cookie']).toBeUndefined();
    const sameSite = await t.inject({
      method: 'POST',
      url: '/console/login',
      payload: form({ email: member.email, password: member.password, code: await nextCode(t, member) }),
      headers: { ...FORM, origin: 'https://console.compliance.example', host: 'console.compliance.example' },
    });
    expect(sameSite.statusCode).toBe(303);
  });

  it(`ends a session after ${SESSION_IDLE_SECONDS / 60} idle minutes on the service clock`, async () => {
    const { t } = suite.current;
    const session = await signInAs(t, await createStaffMember(t, 'auditor'));
    await t.advance(SESSION_IDLE_SECONDS - 60);
    expect((await asStaff(t, session, 'GET', '/session')).statusCode).toBe(200);
    await t.advance(SESSION_IDLE_SECONDS - 60);
    expect((await asStaff(t, session, 'GET', '/session')).statusCode).toBe(200);
    await t.advance(SESSION_IDLE_SECONDS);
    expect((await asStaff(t, session, 'GET', '/session')).statusCode).toBe(401);
    expect((await consoleGet(session.cookie)).headers.location).toBe('/console/login?next=%2Fconsole');
  });

  it('ends a session 12 hours after sign-in however busy it is, on the service clock', async () => {
    const { t } = suite.current;
    expect(t.config.staffSessionMaxHours).toBe(12);
    // signInAs leaves the clock 30 seconds after the sign-in.
    const session = await signInAs(t, await createStaffMember(t, 'auditor'));
    let elapsed = 30;
    // A request every 20 minutes: never idle long enough for the idle timeout.
    while (elapsed + 20 * 60 < 12 * 3600) {
      await t.advance(20 * 60);
      elapsed += 20 * 60;
      expect((await asStaff(t, session, 'GET', '/session')).statusCode, `${elapsed} s in`).toBe(200);
    }
    await t.advance(20 * 60);
    expect((await asStaff(t, session, 'GET', '/session')).statusCode).toBe(401);
    expect((await consoleGet(session.cookie)).headers.location).toBe('/console/login?next=%2Fconsole');
  });

  it('lets every role sign out from its pages, the regulator included', async () => {
    const { t } = suite.current;
    for (const role of STAFF_ROLES) {
      const session = await signInAs(t, await createStaffMember(t, role));
      // The regulator's pages are the reports; every other role lands on the dashboard.
      const landing = await consoleGet(
        session.cookie,
        role === 'regulator' ? '/console/reports' : '/console',
      );
      expect(landing.statusCode, role).toBe(200);
      expect(landing.body, role).toContain('action="/console/logout"');
      expect(landing.body, role).toContain('>Sign out</button>');
      const signedOut = await postForm(t, session, '/console/logout', {});
      expect(signedOut.statusCode, role).toBe(303);
      expect(signedOut.headers.location, role).toBe('/console/login');
      expect((await asStaff(t, session, 'GET', '/session')).statusCode, role).toBe(401);
    }
  });

  it('a reset account cannot sign in with its old password and code, and its old session is gone', async () => {
    const { t } = suite.current;
    const admin = await signInAs(t, suite.current.admin);
    const member = await createStaffMember(t, 'supervisor');
    const session = await signInAs(t, member);
    const reset = await asStaff(t, admin, 'POST', `/staff/${member.staffId}/setup-link`);
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ staff_id: member.staffId, status: 'invited' });

    // The old session: refused by the API, sent to the sign-in page by the console.
    expect((await asStaff(t, session, 'GET', '/session')).statusCode).toBe(401);
    expect((await consoleGet(session.cookie)).headers.location).toBe('/console/login?next=%2Fconsole');
    // The old password with the old authenticator's current code: refused, with the one message.
    const old = await signIn(member);
    expect(old.statusCode).toBe(401);
    expect(old.body).toContain('The email, password or authentication code is not right');
    const stored = await t.db
      .selectFrom('staff_accounts')
      .select(['status', 'password_hash', 'totp_secret', 'totp_last_step'])
      .where('staff_id', '=', member.staffId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      status: 'invited',
      password_hash: null,
      totp_secret: null,
      totp_last_step: null,
    });

    // The holder sets up again through the new link; then only the new credentials work.
    // The link went to the holder by mail; the admin who reset the account never saw it.
    expect(reset.json()).not.toHaveProperty('setup_path');
    const setup_path = await mailedSetupPath(t, member.email);
    const setupPage = await t.inject({ method: 'GET', url: setup_path });
    const totpSecret = hiddenField(setupPage.body, 'totp_secret');
    const password = 'a new passphrase after the reset';
    const done = await t.inject({
      method: 'POST',
      url: setup_path,
      payload: form({
        password,
        totp_secret: totpSecret,
        code: totpCode(totpSecret, t.platform.clock.now()),
      }),
      headers: FORM,
    });
    expect(done.statusCode).toBe(200);
    await t.advance(30);
    const renewed = { ...member, password, totpSecret };
    expect((await signIn(member, { password: member.password, code: codeFor(t, renewed) })).statusCode).toBe(
      401,
    );
    expect((await signIn(renewed)).statusCode).toBe(303);
  });

  it("stops a disabled account's sessions at once and refuses its sign-in", async () => {
    const { t } = suite.current;
    const admin = await signInAs(t, suite.current.admin);
    const member = await createStaffMember(t, 'reviewer');
    const session = await signInAs(t, member);
    expect((await asStaff(t, session, 'GET', '/session')).statusCode).toBe(200);
    const disabled = await asStaff(t, admin, 'POST', `/staff/${member.staffId}/disable`);
    expect(disabled.json()).toMatchObject({ status: 'disabled' });
    expect((await asStaff(t, session, 'GET', '/session')).statusCode).toBe(401);
    expect((await consoleGet(session.cookie)).statusCode).toBe(303);
    expect((await signIn(member)).statusCode).toBe(401);
  });

  it('accepts a setup link once, and not after 24 hours', async () => {
    const { t } = suite.current;
    const admin = await staffOf(t, 'admin');
    const created = await asStaff(t, admin, 'POST', '/staff', {
      email: 'late@compliance.example',
      display_name: 'Late',
      role: 'reviewer',
    });
    expect(created.statusCode).toBe(201);
    const setup_path = await mailedSetupPath(t, 'late@compliance.example');
    expect((await t.inject({ method: 'GET', url: setup_path })).statusCode).toBe(200);
    await t.advance(24 * 3600);
    const expired = await t.inject({ method: 'GET', url: setup_path });
    expect(expired.statusCode).toBe(404);
    expect(expired.body).toContain('This setup link is not valid');
    // A used link: the driver's member already spent theirs.
    const member = await createStaffMember(t, 'auditor');
    expect(member.staffId).toMatch(/^stf_/);
  });

  it('reaches no console or back-office route with a tenant API key', async () => {
    const { t, tenant } = suite.current;
    const routes = t.service.app.routeCatalogue.filter(
      (r) =>
        (r.url.startsWith('/backoffice/') || r.url.startsWith('/console')) &&
        r.config?.staffAction !== 'public' &&
        r.method !== 'HEAD',
    );
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const url = route.url.replace(/:([a-z_]+)/g, (_, n: string) =>
        n === 'subject' ? 'sanctions' : `x_${n}`,
      );
      const response = await t.inject({
        method: route.method as 'GET',
        url,
        headers: { authorization: `Bearer ${tenant.apiKey}` },
        payload: route.method === 'GET' ? undefined : {},
      });
      const shut =
        response.statusCode === 401 ||
        (response.statusCode === 303 && response.headers.location?.startsWith('/console/login'));
      expect(shut, `${route.method} ${route.url} → ${response.statusCode}`).toBe(true);
    }
  });
});
