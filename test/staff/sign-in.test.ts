import { randomInt } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { STRICT_TRANSPORT_SECURITY } from '../../src/app.js';
import { SIGN_IN_ALERT_EVERY_FAILURES, SIGN_IN_THROTTLES, signInWaits } from '../../src/staff/staff.rules.js';
import { codeFor, createStaffMember, form, nextCode, type TestStaffMember } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PER_ADDRESS = SIGN_IN_THROTTLES.email_from_address;
const PER_EMAIL = SIGN_IN_THROTTLES.email;

/** An address of this test's own: with REDIS_URL, every test file's attempts from one address count together. */
const freshAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function signIn(
  t: TestService,
  fields: { email: string; password: string; code: string },
  options: { from?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.inject({
    method: 'POST',
    url: '/console/login',
    remoteAddress: options.from ?? '127.0.0.1',
    payload: form(fields),
    headers: { ...FORM, ...options.headers },
  });
}

const asOwner = async (t: TestService, member: TestStaffMember, from?: string) =>
  signIn(t, { email: member.email, password: member.password, code: await nextCode(t, member) }, { from });

/** Password hashes sign-in has computed, as GET /backoffice/v1/metrics reports them. */
async function passwordChecks(t: TestService): Promise<number> {
  const text = (await t.backoffice('GET', '/metrics')).body;
  return Number(/^compliance_staff_password_checks_total (\d+)/m.exec(text)?.[1] ?? 0);
}

const statuses = (responses: LightMyRequestResponse[]) =>
  responses.map((r) => r.statusCode).sort((a, b) => a - b);

describe('sign-in throttling: before any password hash, per address and per email, never a lock', () => {
  const suite = useSuite(() => TestService.start());

  it('100 concurrent wrong sign-ins for one account compute at most the allowance of hashes, and its owner still gets in', async () => {
    const t = suite.current;
    const member = await createStaffMember(t, 'admin');
    const attacker = freshAddress();
    const before = await passwordChecks(t);
    const attempts = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        signIn(
          t,
          { email: member.email, password: `guess number ${i}`, code: codeFor(t, member) },
          { from: attacker },
        ),
      ),
    );
    // A few free failures, then the one that sets the first wait: the rest were refused before hashing.
    const allowance = PER_ADDRESS.freeFailures + 1;
    expect(await passwordChecks(t)).toBe(before + allowance);
    expect(statuses(attempts)).toEqual([
      ...Array<number>(allowance).fill(401),
      ...Array<number>(100 - allowance).fill(429),
    ]);
    const waiting = attempts.find((r) => r.statusCode === 429)!;
    expect(waiting.headers['retry-after']).toBe(String(PER_ADDRESS.firstWaitSeconds));
    expect(waiting.body).toContain('Too many attempts to sign in with this email: try again in 1 second');

    // From the stranger's address even the right credentials wait, and cost no hash meanwhile.
    expect((await asOwner(t, member, attacker)).statusCode).toBe(429);
    expect(await passwordChecks(t)).toBe(before + allowance);
    // The owner, elsewhere, is not kept out by the stranger's failures.
    expect((await asOwner(t, member, freshAddress())).statusCode).toBe(303);
    // From the stranger's own address too, once the wait is over (and the authenticator shows its next code).
    await t.advance(30);
    expect((await asOwner(t, member, attacker)).statusCode).toBe(303);
  });

  it('100 concurrent wrong sign-ins for one account from 100 addresses compute at most the per-email allowance', async () => {
    const t = suite.current;
    const member = await createStaffMember(t, 'supervisor');
    const before = await passwordChecks(t);
    const attempts = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        signIn(
          t,
          { email: member.email, password: `guess number ${i}`, code: codeFor(t, member) },
          { from: freshAddress() },
        ),
      ),
    );
    const allowance = PER_EMAIL.freeFailures + 1;
    expect(await passwordChecks(t)).toBe(before + allowance);
    expect(attempts.filter((r) => r.statusCode === 401)).toHaveLength(allowance);
    // The per-email wait is short: the owner gets in once it is over.
    await t.advance(PER_EMAIL.firstWaitSeconds);
    expect((await asOwner(t, member, freshAddress())).statusCode).toBe(303);
  });

  it('waits longer after each failure, doubling up to the cap, and a success ends the streak', async () => {
    const t = suite.current;
    const member = await createStaffMember(t, 'reviewer');
    const from = freshAddress();
    const wrong = () =>
      signIn(t, { email: member.email, password: 'not the password', code: codeFor(t, member) }, { from });
    const waits = signInWaits(PER_ADDRESS);
    expect(waits).toEqual([0, 0, 0, 1, 2, 4, 8, 16, 32, 60]);
    for (const wait of [...waits, PER_ADDRESS.maxWaitSeconds]) {
      expect((await wrong()).statusCode).toBe(401);
      if (wait === 0) continue;
      const refused = await wrong();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBe(wait);
      await t.advance(wait);
    }
    // Past the cap it is still a wait, never a lock: the owner gets in.
    await t.advance(30);
    expect((await asOwner(t, member, from)).statusCode).toBe(303);
    // And the streak starts again from nothing.
    for (let i = 0; i < PER_ADDRESS.freeFailures; i++) expect((await wrong()).statusCode).toBe(401);
  });

  it('answers an unknown email exactly as a known one, at the same cost', async () => {
    const t = suite.current;
    const member = await createStaffMember(t, 'auditor');
    const from = freshAddress();
    const run = async (email: string) => {
      const before = await passwordChecks(t);
      const answers: string[] = [];
      for (let i = 0; i < PER_ADDRESS.freeFailures + 2; i++) {
        const response = await signIn(t, { email, password: 'not the password', code: '123456' }, { from });
        const page = response.body.replaceAll(email, '(the email typed)');
        answers.push(`${response.statusCode} ${response.headers['retry-after'] ?? '-'} ${page}`);
      }
      return { answers, hashes: (await passwordChecks(t)) - before };
    };
    const known = await run(member.email);
    const unknown = await run('nobody.here@compliance.example');
    expect(unknown).toEqual(known);
    expect(known.hashes).toBe(PER_ADDRESS.freeFailures + 1);
    expect(known.answers.map((a) => a.split(' ', 2).join(' '))).toEqual([
      '401 -',
      '401 -',
      '401 -',
      '401 -',
      '429 1',
    ]);
  });

  it(`raises an alert every ${SIGN_IN_ALERT_EVERY_FAILURES} failures in a row at an account, and audits each`, async () => {
    const t = suite.current;
    const member = await createStaffMember(t, 'admin');
    // From many addresses, as a spread guessing would come, so that no per-address wait slows the test.
    for (let i = 0; i < SIGN_IN_ALERT_EVERY_FAILURES; i++) {
      await t.advance(PER_EMAIL.maxWaitSeconds);
      const response = await signIn(
        t,
        { email: member.email, password: `guess ${i}`, code: '000000' },
        { from: freshAddress() },
      );
      expect(response.statusCode).toBe(401);
    }
    const alerts = (await t.backoffice('GET', '/alerts?kind=staff_sign_in_failures')).json<{
      alerts: { subject: string; message: string }[];
    }>().alerts;
    expect(alerts.filter((a) => a.subject === member.staffId)).toEqual([
      expect.objectContaining({
        message: `${SIGN_IN_ALERT_EVERY_FAILURES} failed sign-ins in a row for the staff account ${member.staffId}`,
      }),
    ]);
    const audited = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('actor', '=', member.staffId)
      .where('action', '=', 'staff.sign_in_failed')
      .execute();
    expect(audited).toHaveLength(SIGN_IN_ALERT_EVERY_FAILURES);
  });

  it('two concurrent sign-ins with one code give one session', async () => {
    const t = suite.current;
    const member = await createStaffMember(t, 'reviewer');
    const code = codeFor(t, member);
    const fields = { email: member.email, password: member.password, code };
    const both = await Promise.all([signIn(t, fields), signIn(t, fields)]);
    expect(statuses(both)).toEqual([303, 401]);
    const sessions = await t.db
      .selectFrom('staff_sessions')
      .select('session_hash')
      .where('staff_id', '=', member.staffId)
      .execute();
    expect(sessions).toHaveLength(1);
  });
});

describe('sign-in throttling: a streak is forgotten', () => {
  const suite = useSuite(() => TestService.start());

  it('a day after its last attempt, by the daily purge', async () => {
    const t = suite.current;
    const member = await createStaffMember(t, 'auditor');
    const from = freshAddress();
    const wrong = () =>
      signIn(t, { email: member.email, password: 'not the password', code: codeFor(t, member) }, { from });
    for (let i = 0; i <= PER_ADDRESS.freeFailures; i++) expect((await wrong()).statusCode).toBe(401);
    await t.advance(25 * 3600);
    await t.deliverWebhooks();
    // Remembered, the next failure would set a wait of 2 seconds and the one after it be refused.
    for (let i = 0; i < PER_ADDRESS.freeFailures; i++) expect((await wrong()).statusCode).toBe(401);
  });
});

describe('sign-in throttling per client address', () => {
  const LIMIT = 5;
  const suite = useSuite(() => TestService.start({ authFailuresPerMinute: LIMIT }));

  it('answers 429 past the address budget before any hash or write, whichever emails are tried', async () => {
    const t = suite.current;
    const from = freshAddress();
    const before = await passwordChecks(t);
    for (let i = 0; i < LIMIT; i++) {
      const response = await signIn(
        t,
        { email: `someone.${i}@compliance.example`, password: 'a password', code: '123456' },
        { from },
      );
      expect(response.statusCode).toBe(401);
    }
    const over = await signIn(
      t,
      { email: 'someone.else@compliance.example', password: 'a password', code: '123456' },
      { from },
    );
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body).toContain(`More than ${LIMIT} sign-in attempts a minute from this address`);
    expect(await passwordChecks(t)).toBe(before + LIMIT);
    const logged = await t.db
      .selectFrom('security_log')
      .select('security_log_id')
      .where('remote_ip', '=', from)
      .execute();
    expect(logged).toHaveLength(LIMIT);
  });
});

describe('the session cookie and HSTS', () => {
  const suite = useSuite(async (own) => {
    // Behind one proxy: its X-Forwarded-Proto is believed.
    const t = own(await TestService.start({ trustProxy: 1 }));
    return { t, member: await createStaffMember(t, 'auditor') };
  });

  const session = (t: TestService, cookie: string, headers: Record<string, string> = {}) =>
    t.inject({ method: 'GET', url: '/backoffice/v1/session', headers: { cookie, ...headers } });

  it('over HTTPS forwarded by a trusted proxy: a __Host- prefixed, Secure cookie, and HSTS on every response', async () => {
    const { t, member } = suite.current;
    const https = { 'x-forwarded-proto': 'https' };
    const response = await signIn(
      t,
      { email: member.email, password: member.password, code: await nextCode(t, member) },
      { headers: https },
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(
      /^__Host-console_session=[^;]+; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
    const id = /console_session=([^;]+)/.exec(cookie)![1]!;
    await t.advance(30);

    const read = await session(t, `__Host-console_session=${id}`, https);
    expect(read.statusCode).toBe(200);
    expect(read.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    // The tenant API's answers carry it too.
    const health = await t.inject({ method: 'GET', url: '/v1/health', headers: https });
    expect(health.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    // Over HTTPS the unprefixed name, which a sibling domain could set, is not read.
    expect((await session(t, `console_session=${id}`, https)).statusCode).toBe(401);
  });

  it('to a host that is not loopback, even over plain HTTP: the __Host- prefixed, Secure cookie, without HSTS', async () => {
    const { t, member } = suite.current;
    await t.advance(30);
    const host = { host: 'console.compliance.example' };
    const response = await signIn(
      t,
      { email: member.email, password: member.password, code: await nextCode(t, member) },
      { headers: host },
    );
    expect(response.statusCode).toBe(303);
    expect(String(response.headers['set-cookie'])).toMatch(/^__Host-console_session=[^;]+;.* Secure;/);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('on plain loopback HTTP: the plain cookie, without Secure or HSTS', async () => {
    const { t, member } = suite.current;
    const response = await signIn(t, {
      email: member.email,
      password: member.password,
      code: await nextCode(t, member),
    });
    expect(response.statusCode).toBe(303);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^console_session=[^;]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(response.headers['strict-transport-security']).toBeUndefined();
    const id = /console_session=([^;]+)/.exec(cookie)![1]!;
    expect((await session(t, `console_session=${id}`)).statusCode).toBe(200);
  });

  it('believes X-Forwarded-Proto only from a trusted proxy', async () => {
    const t = await TestService.start();
    try {
      const member = await createStaffMember(t, 'auditor');
      const response = await signIn(
        t,
        { email: member.email, password: member.password, code: await nextCode(t, member) },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
      expect(response.statusCode).toBe(303);
      expect(String(response.headers['set-cookie'])).toMatch(/^console_session=/);
      expect(response.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
