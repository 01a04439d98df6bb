import { describe, expect, it } from 'vitest';
import { createSession, requestCode } from '../../src/areas/embeds/embeds.test-support.js';
import { MAIL_RETRY_SECONDS } from '../../src/platform/mail/mail.js';
import { STAFF_ROLES } from '../../src/staff/staff.rules.js';
import { SmtpInbox } from '../helpers/smtp-inbox.js';
import { asStaff, createStaffMember, signInAs } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

/** Sends one code mail to a fresh address through a self-exclusion embed; returns the address. */
async function codeMail(t: TestService, tenantId: string, apiKey: string): Promise<string> {
  const email = `player.${Math.random().toString(36).slice(2)}@example.com`;
  const session = await createSession(
    t,
    { tenantId, apiKey, signingSecret: '', environment: 'sandbox' },
    {
      kind: 'self_exclusion',
      user_id: email,
      email,
    },
  );
  expect((await requestCode(t, session.token, 'duration_24h')).statusCode).toBe(202);
  return email;
}

/** The bodies the outbox row still holds. */
const storedBodies = (t: TestService, email: string) =>
  t.db
    .selectFrom('mail_outbox')
    .select(['text_body', 'html_body'])
    .where('to_address', '=', email)
    .executeTakeFirstOrThrow();

async function mailTo(t: TestService, email: string) {
  const response = await t.backoffice('GET', '/mail?limit=500');
  return response.json<{ mail: Array<Record<string, unknown>> }>().mail.find((m) => m.to === email)!;
}

describe('the mail outbox over SMTP', () => {
  const suite = useSuite(async (own) => {
    const inbox = own(await SmtpInbox.start());
    const t = own(await TestService.start({ smtpUrl: inbox.url }));
    const tenant = await t.createTenant();
    return { t, inbox, tenant };
  });

  it('retries a message the relay refused, on the service clock, and sends it once when the relay takes it', async () => {
    const { t, inbox, tenant } = suite.current;
    inbox.refusing = true;
    const email = await codeMail(t, tenant.tenantId, tenant.apiKey);
    await t.deliverWebhooks();
    expect(await mailTo(t, email)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: expect.stringContaining('451'),
    });
    // Not due again before its wait.
    await t.advance(MAIL_RETRY_SECONDS[0] - 1);
    expect(await mailTo(t, email)).toMatchObject({ attempts: 1 });
    inbox.refusing = false;
    await t.advance(1);
    await t.deliverWebhooks();
    expect(await mailTo(t, email)).toMatchObject({ status: 'sent', attempts: 2, text: null });
    expect(inbox.to(email)).toHaveLength(1);
    expect(await storedBodies(t, email)).toEqual({ text_body: null, html_body: null });
    await t.advance(3600);
    await t.deliverWebhooks();
    expect(inbox.to(email)).toHaveLength(1);
  });

  it('gives up after the whole schedule: failed, alerted and counted', async () => {
    const { t, inbox, tenant } = suite.current;
    inbox.refusing = true;
    const email = await codeMail(t, tenant.tenantId, tenant.apiKey);
    await t.deliverWebhooks();
    for (const wait of MAIL_RETRY_SECONDS) {
      await t.advance(wait);
      await t.deliverWebhooks();
    }
    inbox.refusing = false;
    const mail = await mailTo(t, email);
    expect(mail).toMatchObject({ status: 'failed', attempts: MAIL_RETRY_SECONDS.length + 1 });
    // Given up on: the code goes too, the outcome stays.
    expect(await storedBodies(t, email)).toEqual({ text_body: null, html_body: null });
    const alerts = await t.backoffice('GET', '/alerts?kind=mail_failed');
    const alert = alerts.json().alerts.find((a: { subject: string }) => a.subject === mail.mail_id);
    // The relay's reply quotes the address: the staff see it with the mail, the alert (and the log) only its code.
    expect(mail.last_error).toContain(email);
    expect(alert.message).toContain('last reply: 451');
    expect(alert.message).not.toContain(email);
    const metrics = await t.backoffice('GET', '/metrics');
    expect(metrics.body).toMatch(/compliance_mail_failed_total\{purpose="embed_code"\} [1-9]/);
    expect(inbox.to(email)).toHaveLength(0);
  });

  it("drops a code mail's bodies once it is sent, keeping who, when, the subject and the outcome", async () => {
    const { t, inbox, tenant } = suite.current;
    const email = await codeMail(t, tenant.tenantId, tenant.apiKey);
    // Until it is sent the bodies are kept, for the retries.
    expect((await storedBodies(t, email)).text_body).toMatch(/Your confirmation code is \d{6}\./);
    await t.deliverWebhooks();
    const code = /\b(\d{6})\b/.exec(inbox.to(email)[0]!.text!)![1]!;
    expect(await storedBodies(t, email)).toEqual({ text_body: null, html_body: null });
    const mail = await mailTo(t, email);
    expect(mail).toMatchObject({
      purpose: 'embed_code',
      to: email,
      subject: 'Your confirmation code',
      status: 'sent',
      attempts: 1,
      sent_at: expect.any(String),
      last_error: null,
      text: null,
    });
    const one = await t.backoffice('GET', `/mail/${String(mail.mail_id)}`);
    expect(one.json()).toEqual(mail);
    const row = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('mail_id', '=', String(mail.mail_id))
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
  });

  it('deletes every message 7 days after it was written', async () => {
    const { t, tenant } = suite.current;
    const email = await codeMail(t, tenant.tenantId, tenant.apiKey);
    await t.deliverWebhooks();
    await t.advance(6 * 86_400);
    expect(await mailTo(t, email)).toBeDefined();
    await t.advance(2 * 86_400);
    expect(await mailTo(t, email)).toBeUndefined();
  });
});

describe('who reads the mail outbox', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const tenant = await t.createTenant();
    await codeMail(t, tenant.tenantId, tenant.apiKey);
    const mailId = (await t.backoffice('GET', '/mail')).json<{ mail: { mail_id: string }[] }>().mail[0]!
      .mail_id;
    return { t, mailId };
  });

  it('admins only: every other role gets 403 on the list and on one message', async () => {
    const { t, mailId } = suite.current;
    for (const role of STAFF_ROLES) {
      const session = await signInAs(t, await createStaffMember(t, role));
      for (const url of ['/mail', `/mail/${mailId}`]) {
        const response = await asStaff(t, session, 'GET', url);
        expect([role, url, response.statusCode]).toEqual([role, url, role === 'admin' ? 200 : 403]);
        if (role !== 'admin') expect(response.json().error).toBe('forbidden');
        // An admin reads the code only on the embedded sandbox (see below); the others never.
        const shown = role === 'admin' && !t.config.databaseUrl;
        expect(response.body.includes('Your confirmation code is')).toBe(shown);
      }
    }
  });
});

describe('the mail outbox without SMTP (the embedded default)', () => {
  const suite = useSuite(() => TestService.start());

  it('keeps the message, and shows a code to the staff only on the embedded database (a one-machine sandbox)', async () => {
    const t = suite.current;
    const tenant = await t.createTenant();
    const email = await codeMail(t, tenant.tenantId, tenant.apiKey);
    await t.deliverWebhooks();
    const mail = await mailTo(t, email);
    expect(mail).toMatchObject({
      purpose: 'embed_code',
      tenant_id: tenant.tenantId,
      status: 'pending',
      attempts: 0,
      subject: 'Your confirmation code',
      // On PostgreSQL (a shared deployment) a secret body is for its recipient alone, even without SMTP.
      text: t.config.databaseUrl ? null : expect.stringMatching(/^Your confirmation code is \d{6}\./),
    });
    const one = await t.backoffice('GET', `/mail/${String(mail.mail_id)}`);
    expect(one.json()).toEqual(mail);
    expect((await t.backoffice('GET', '/mail/mail_nope')).statusCode).toBe(404);
  });
});
