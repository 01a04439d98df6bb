import { escapeHtml } from '../platform/html.js';
import type { OutgoingMail } from '../platform/mail/mail.js';
import { SETUP_LINK_SECONDS } from './staff.rules.js';

/**
 * The invitee's one-time setup link, by mail to the account's own address: never shown to the admin who created
 * or reset the account, so no admin can hold a second identity. The link is the only secret in it.
 */
export function setupLinkMail(input: { to: string; displayName: string; link: string }): OutgoingMail {
  const hours = SETUP_LINK_SECONDS / 3600;
  const text = [
    `Hello ${input.displayName},`,
    `An account on the compliance service's staff console is ready for you. Open this link within ${hours} hours to set your password and enrol an authenticator app:`,
    input.link,
    'The link works once. If you did not expect this message, tell your compliance team and do not open it.',
  ].join('\n\n');
  const html = text
    .split('\n\n')
    .map((p) =>
      p === input.link ? `<p><a href="${escapeHtml(p)}">${escapeHtml(p)}</a></p>` : `<p>${escapeHtml(p)}</p>`,
    )
    .join('\n');
  return {
    tenantId: null,
    purpose: 'staff_setup_link',
    to: input.to,
    subject: 'Your compliance console account',
    secret: true,
    text,
    html: `<!doctype html><html lang="en"><body style="font-family:sans-serif;line-height:1.5">\n${html}\n</body></html>`,
  };
}
