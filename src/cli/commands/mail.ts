import type { Static } from 'typebox';
import type { MailEntry } from '../../platform/mail/mail.backoffice.routes.js';
import { command, get, id, limitQuery, lines, type Command } from '../command.js';

type Mail = Static<typeof MailEntry>;

const summary = (m: Mail) =>
  `${String(m.created_at)}  ${m.mail_id}  ${m.status}  attempts=${m.attempts}  ${m.purpose}  to ${m.to}`;

/** The mail outbox: what the service sent, or keeps while no SMTP server is configured (docs/embeds.md). */
export const MAIL_COMMANDS: Record<string, Command> = {
  'mail list': command(
    'mail list [--limit N]',
    (_, f) => get(`/mail${limitQuery(f)}`),
    ({ mail }: { mail: Mail[] }) =>
      lines(
        mail.flatMap((m) => [
          summary(m),
          ...(m.text ? [`  ${m.subject}`, ...m.text.split('\n').map((l) => `    ${l}`)] : []),
        ]),
        'No mail.',
      ),
  ),
  'mail show': command(
    'mail show <mail_id>',
    ([mailId]) => get(`/mail/${id(mailId!)}`),
    (m: Mail) =>
      [
        summary(m),
        `  subject: ${m.subject}`,
        ...(m.last_error ? [`  last error: ${m.last_error}`] : []),
        ...(m.text
          ? ['', m.text]
          : [
              '  (no text: it is shown only on a sandbox without an SMTP server, and never a code or a link on PostgreSQL)',
            ]),
      ].join('\n'),
  ),
};
