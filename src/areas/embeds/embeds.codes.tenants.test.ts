import { describe, expect, it } from 'vitest';
import { SmtpInbox } from '../../../test/helpers/smtp-inbox.js';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestTenant } from '../../../test/helpers/test-service.js';
import { uniqueEmail, userId } from '../exclusions/exclusions.test-support.js';
import { CODE_LIMITS } from './embeds.rules.js';
import { confirmCode, createSession, errorBody, requestCode } from './embeds.test-support.js';

/**
 * Codes to one player's email asked for by several tenants (security): each tenant has its own hourly limit, and the
 * service-wide ceiling on mail to one address is never told to the tenant that meets it; the staff are alerted.
 */
describe('embed codes across tenants', () => {
  const suite = useSuite(async (own) => {
    const inbox = own(await SmtpInbox.start());
    const { t } = own(await TenantDriver.start({ config: { smtpUrl: inbox.url } }));
    return { t, inbox };
  });

  let operators = 0;
  const operator = () => {
    operators += 1;
    return suite.current.t.createTenant({ name: `Operator ${operators}` });
  };

  /** A new session of the tenant for this email, and its request for a code (as the page or the tenant's UI asks). */
  async function askForCode(tenant: TestTenant, email: string) {
    const { t } = suite.current;
    const session = await createSession(t, tenant, { kind: 'self_exclusion', user_id: userId(), email });
    const response = await requestCode(t, session.token, 'duration_24h');
    return { session, response, email };
  }

  /** The mail the relay received for this address, once the worker has sent what is due. */
  async function mailTo(email: string) {
    const { t, inbox } = suite.current;
    await t.deliverWebhooks();
    return inbox.to(email.toLowerCase());
  }

  const ceilingAlerts = async () =>
    (await suite.current.t.backoffice('GET', '/alerts?kind=embed_code_ceiling&limit=1000')).json<{
      alerts: { subject: string; message: string; details: Record<string, unknown> }[];
    }>().alerts;

  /** Enough tenants, each within its own limit, to mail the ceiling's codes to the email between them. */
  async function reachCeiling(email: string) {
    const perTenant = CODE_LIMITS.per_tenant_per_hour;
    for (let sent = 0; sent < CODE_LIMITS.service_wide_per_hour; sent += perTenant) {
      const tenant = await operator();
      for (let i = 0; i < Math.min(perTenant, CODE_LIMITS.service_wide_per_hour - sent); i++) {
        expect((await askForCode(tenant, email)).response.statusCode).toBe(202);
      }
    }
    expect(await mailTo(email)).toHaveLength(CODE_LIMITS.service_wide_per_hour);
  }

  it("tenant A using up its codes for an email leaves tenant B able to send one, which B's player receives", async () => {
    const { t } = suite.current;
    const email = uniqueEmail();
    const a = await t.createTenant({ name: 'Casino Alpha' });
    const b = await t.createTenant({ name: 'Casino Beta' });
    for (let i = 0; i < CODE_LIMITS.per_tenant_per_hour; i++) {
      expect((await askForCode(a, email)).response.statusCode).toBe(202);
      await t.advance(60);
    }
    const refused = (await askForCode(a, email)).response;
    expect(refused.statusCode).toBe(429);
    // A's first code leaves the hour 3,600 s after it was asked for; 300 s have passed since.
    expect(refused.headers['retry-after']).toBe('3300');
    expect(refused.json()).toEqual({ ...errorBody('too_many_codes'), retry_after_seconds: 3300 });

    const { session, response } = await askForCode(b, email);
    expect(response.statusCode).toBe(202);
    const mails = await mailTo(email);
    expect(mails).toHaveLength(CODE_LIMITS.per_tenant_per_hour + 1);
    const fromB = mails.filter((mail) => mail.text?.includes("Casino Beta's page"));
    expect(fromB).toHaveLength(1);
    const code = /\b(\d{6})\b/.exec(fromB[0]!.text!)![1]!;
    const confirmed = await confirmCode(t, session.token, code);
    expect(confirmed.statusCode, confirmed.body).toBe(201);
  });

  it('past the ceiling a tenant gets the usual answer and page, no mail goes out, and one alert names the tenant for the hour', async () => {
    const { t, inbox } = suite.current;
    const email = uniqueEmail();
    await reachCeiling(email);
    const late = await operator();

    const { session, response } = await askForCode(late, email);
    expect(response.statusCode).toBe(202);
    const now = t.platform.clock.now().getTime();
    expect(response.json()).toEqual({
      code_expires_at: new Date(now + 10 * 60_000).toISOString(),
      resend_available_at: new Date(now + 60_000).toISOString(),
    });
    // The player's page shows the code step, as after any request; the mail simply never comes.
    const page = await t.inject({ method: 'GET', url: `/embeds/${session.token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Check your email');
    expect(await mailTo(email)).toHaveLength(CODE_LIMITS.service_wide_per_hour);
    // Its code behaves as any other: a wrong one counts down the attempts.
    const wrong = await confirmCode(t, session.token, '000000');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ ...errorBody('invalid_code'), attempts_left: 4 });

    const alerts = (await ceilingAlerts()).filter((alert) => alert.subject === late.tenantId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.message).toContain(late.tenantId);
    // The keyed hash the codes are stored under names the address for the staff, who can find its codes by it.
    const stored = await t.db
      .selectFrom('embed_codes')
      .select('email_hash')
      .where('embed_session_id', '=', session.embed_session_id)
      .executeTakeFirstOrThrow();
    expect(alerts[0]!.details).toEqual({
      tenant_id: late.tenantId,
      email_hash: stored.email_hash,
      service_wide_per_hour: CODE_LIMITS.service_wide_per_hour,
    });
    // Personal data stays out of the alert: the address, in any case, appears nowhere in it.
    expect(JSON.stringify(alerts[0]).toLowerCase()).not.toContain(email.toLowerCase());
    expect(JSON.stringify(alerts[0]).toLowerCase()).not.toContain(email.toLowerCase().split('@')[0]);

    // More requests in the hour: each answered as usual, none mailed, and still one alert.
    await t.advance(60);
    expect((await requestCode(t, session.token, 'duration_24h')).statusCode).toBe(202);
    expect((await askForCode(late, email)).response.statusCode).toBe(202);
    expect(await mailTo(email)).toHaveLength(CODE_LIMITS.service_wide_per_hour);
    expect((await ceilingAlerts()).filter((alert) => alert.subject === late.tenantId)).toHaveLength(1);

    // Its own limit counts every code it asked for, mailed or not: three so far (a session, its resend, another).
    for (let asked = 3; asked < CODE_LIMITS.per_tenant_per_hour; asked++) {
      expect((await askForCode(late, email)).response.statusCode).toBe(202);
    }
    const own = (await askForCode(late, email)).response;
    expect(own.statusCode).toBe(429);
    expect(own.json()).toMatchObject({ error: 'too_many_codes' });

    // Once the hour has passed, mail goes out again.
    await t.advance(60 * 60);
    const next = await askForCode(late, email);
    expect(next.response.statusCode).toBe(202);
    expect(await mailTo(email)).toHaveLength(CODE_LIMITS.service_wide_per_hour + 1);
    const code = inbox.latestCode(email.toLowerCase());
    expect((await confirmCode(t, next.session.token, code)).statusCode).toBe(201);
  });

  it('holds under concurrent requests: six tenants asking at once mail exactly the ceiling, none over its own limit', async () => {
    const { t } = suite.current;
    const email = uniqueEmail();
    const tenants = await Promise.all(Array.from({ length: 6 }, () => operator()));
    // Sessions first, then every request at once: on PostgreSQL they meet on separate connections.
    const sessions = await Promise.all(
      tenants.flatMap((tenant) =>
        Array.from({ length: CODE_LIMITS.per_tenant_per_hour + 1 }, () =>
          createSession(t, tenant, { kind: 'self_exclusion', user_id: userId(), email }),
        ),
      ),
    );
    const answers = await Promise.all(sessions.map((s) => requestCode(t, s.token, 'duration_24h')));
    const statuses = answers.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 202)).toHaveLength(6 * CODE_LIMITS.per_tenant_per_hour);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    expect(await mailTo(email)).toHaveLength(CODE_LIMITS.service_wide_per_hour);
  });

  it('answers a request past the ceiling exactly as a request mailed at the same moment', async () => {
    const { t } = suite.current;
    const capped = uniqueEmail();
    await reachCeiling(capped);
    const tenant = await operator();
    const normal = await askForCode(tenant, uniqueEmail());
    const ceiling = await askForCode(tenant, capped);
    for (const response of [normal.response, ceiling.response]) expect(response.statusCode).toBe(202);
    // Same instant on the test clock: the same body, to the character, and the same headers but the request id.
    expect(ceiling.response.body).toBe(normal.response.body);
    const headers = (response: typeof normal.response) => {
      const { 'x-request-id': _id, date: _date, ...rest } = response.headers;
      return rest;
    };
    expect(headers(ceiling.response)).toEqual(headers(normal.response));
    // The pages too: the code step, the same but for the session's own token and address.
    const page = async ({ session }: typeof normal, email: string) =>
      (await t.inject({ method: 'GET', url: `/embeds/${session.token}` })).body
        .replaceAll(session.token, 'TOKEN')
        .replaceAll(session.embed_session_id, 'SESSION')
        .replaceAll(email.toLowerCase(), 'EMAIL');
    const normalPage = await page(normal, normal.email);
    expect(normalPage).toContain('Check your email');
    expect(await page(ceiling, capped)).toBe(normalPage);
  });
});
