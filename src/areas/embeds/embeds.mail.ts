import { escapeHtml } from '../../platform/html.js';
import type { OutgoingMail } from '../../platform/mail/mail.js';
import type { Duration } from '../exclusions/index.js';
import { CODE_SECONDS, type Locale } from './embeds.rules.js';
import { MESSAGES } from './locales/index.js';

/**
 * The confirmation code's email, in the page's language, as text and HTML. The subject names neither gambling nor
 * exclusion: it may show on a lock screen others can see.
 */
export function codeMail(input: {
  locale: Locale;
  to: string;
  tenantId: string;
  operator: string;
  code: string;
  duration: Duration;
}): OutgoingMail {
  const words = MESSAGES[input.locale];
  const text = words.mail.body(
    input.code,
    input.operator,
    words.exclusion.durations[input.duration],
    CODE_SECONDS / 60,
  );
  const paragraphs = text
    .split('\n\n')
    .map(
      (paragraph) =>
        `<p>${escapeHtml(paragraph).replace(input.code, `<strong style="font-size:1.5em;letter-spacing:0.2em">${input.code}</strong>`)}</p>`,
    )
    .join('\n');
  return {
    tenantId: input.tenantId,
    purpose: 'embed_code',
    // The code is for the player alone: the outbox drops the bodies once the mail is sent.
    secret: true,
    to: input.to,
    subject: words.mail.subject,
    text,
    html: `<!doctype html><html lang="${input.locale}"><body style="font-family:sans-serif;line-height:1.5">\n${paragraphs}\n</body></html>`,
  };
}
