import { describe, expect, it } from 'vitest';
import { asStaff, completeSetupByMail, signInAs, staffTeam } from '../helpers/staff-driver.js';
import { SmtpInbox } from '../helpers/smtp-inbox.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

/**
 * A new account's one-time setup link reaches its invitee by mail, through a real SMTP server, and nobody else: not
 * the admin who created the account (the answer and the pages carry none), and not the mail outbox once sent.
 */
describe('staff invitations by mail', () => {
  const suite = useSuite(async (own) => {
    const inbox = own(await SmtpInbox.start());
    const t = own(await TestService.start({ smtpUrl: inbox.url }));
    return { t, inbox };
  });

  /** The link in the invitee's mail, as their mail client shows it. */
  const linkIn = (inbox: SmtpInbox, email: string) => {
    const link = /https?:\/\/\S+\/console\/setup\/[\w-]+/.exec(inbox.to(email).at(-1)?.text ?? '')?.[0];
    if (!link) throw new Error(`no setup link mailed to ${email}`);
    return link;
  };

  it("an admin's new account gets its setup link only by mail, built from PUBLIC_URL, and the outbox forgets it once sent", async () => {
    const { t, inbox } = suite.current;
    const [admin] = (await staffTeam(t)).admins;
    const email = 'invited.reviewer@compliance.example';
    const created = await asStaff(t, admin, 'POST', '/staff', {
      email,
      display_name: 'Invited Reviewer',
      role: 'reviewer',
    });
    expect(created.statusCode).toBe(201);
    expect(created.body).not.toContain('/console/setup/');
    expect(created.json()).toMatchObject({ status: 'invited', created_by: admin.member.staffId });
    await t.deliverWebhooks();

    const [mail, ...more] = inbox.to(email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your compliance console account');
    const link = linkIn(inbox, email);
    expect(link.startsWith(`${t.config.publicUrl}/console/setup/`)).toBe(true);
    // Nobody else got it, and the admin's page shows no link.
    expect(inbox.received.filter((m) => m.text?.includes(new URL(link).pathname))).toHaveLength(1);
    const page = await t.inject({
      method: 'GET',
      url: '/console/staff',
      headers: { cookie: `console_session=${admin.cookie}` },
    });
    expect(page.body).toContain(email);
    expect(page.body).not.toContain(new URL(link).pathname);
    // Sent: the outbox keeps who, when and the outcome, not the link.
    const stored = await t.db
      .selectFrom('mail_outbox')
      .select(['status', 'text_body', 'html_body'])
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'sent', text_body: null, html_body: null });
    const listed = (await asStaff(t, admin, 'GET', '/mail')).json<{
      mail: { to: string; text: unknown }[];
    }>();
    expect(listed.mail.find((m) => m.to === email)).toMatchObject({ text: null });

    // The link works for its holder: setup, then sign-in.
    expect((await t.inject({ method: 'GET', url: new URL(link).pathname })).statusCode).toBe(200);
  });

  it('an admin or supervisor account is mailed its link only once a second admin approves it', async () => {
    const { t, inbox } = suite.current;
    const [first, second] = (await staffTeam(t)).admins;
    const email = 'invited.supervisor@compliance.example';
    const proposed = await asStaff(t, first, 'POST', '/staff', {
      email,
      display_name: 'Invited Supervisor',
      role: 'supervisor',
    });
    expect(proposed.statusCode).toBe(202);
    await t.deliverWebhooks();
    expect(inbox.to(email)).toEqual([]);
    const staffId = proposed.json<{ staff_id: string }>().staff_id;
    expect((await asStaff(t, second, 'POST', `/staff/${staffId}/proposal/approve`)).statusCode).toBe(200);
    await t.deliverWebhooks();
    expect(inbox.to(email)).toHaveLength(1);
    linkIn(inbox, email);
  });

  it('a reset mails a new link to the holder; the admin who reset the account never sees it', async () => {
    const { t, inbox } = suite.current;
    const [admin] = (await staffTeam(t)).admins;
    const email = 'reset.auditor@compliance.example';
    const created = await asStaff(t, admin, 'POST', '/staff', {
      email,
      display_name: 'Reset Auditor',
      role: 'auditor',
    });
    const account = {
      staffId: created.json<{ staff_id: string }>().staff_id,
      email,
      displayName: 'Reset Auditor',
      role: 'auditor' as const,
      reviewerRef: created.json<{ reviewer_ref: string }>().reviewer_ref,
    };
    // Set up through the outbox copy before it is sent: the holder's own first link.
    const member = await completeSetupByMail(t, account);
    const session = await signInAs(t, member);
    await t.deliverWebhooks();
    const reset = await asStaff(t, admin, 'POST', `/staff/${account.staffId}/setup-link`);
    expect(reset.statusCode).toBe(200);
    expect(reset.body).not.toContain('/console/setup/');
    await t.deliverWebhooks();
    const links = inbox.to(email).map((m) => /\/console\/setup\/[\w-]+/.exec(m.text ?? '')?.[0]);
    expect(links).toHaveLength(2);
    expect(links[0]).not.toBe(links[1]);
    // The old session ended with the reset.
    expect((await asStaff(t, session, 'GET', '/session')).statusCode).toBe(401);
  });
});
