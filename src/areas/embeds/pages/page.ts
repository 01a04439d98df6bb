import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type Html } from '../../../platform/html.js';
import type { TenantContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/db/platform-tables.js';
import type { AppError } from '../../../platform/errors.js';
import { localeOf, type Locale } from '../embeds.rules.js';
import type { EmbedSession } from '../embeds.tables.js';
import { MESSAGES, type Messages } from '../locales/index.js';

/**
 * What every embed page shares: the frame around it (language, operator, framing origins), the layout, the error
 * summary that links to its field, and the headers. One thing a page, plain words, usable without script.
 */

export interface PageFrame {
  locale: Locale;
  operator: string;
  returnUrl: string | null;
  /** Origins the page may tell about itself (postMessage): the tenant's registered framing origins. */
  origins: string[];
  errors?: { field?: string; message: string }[] | undefined;
  notice?: string | undefined;
  /** What the page tells its parent on arrival (completion, a changed limit). */
  message?: Record<string, unknown> | undefined;
}

/** A usable session as a page request reaches it, with the paths of its forms. */
export interface Page {
  session: EmbedSession;
  tenant: Tenant;
  ctx: TenantContext;
  frame: PageFrame;
  paths: {
    page: string;
    request: string;
    confirm: string;
    limits: string;
    timeOut: string;
    realityCheck: string;
    choose: string;
  };
}

export type Form = Record<string, string | undefined>;
export type TokenRequest = FastifyRequest<{
  Params: { token: string; limit_id?: string };
  Body: Form | undefined;
  /** `step`: the exclusion page's step; `saved`: the section whose form was just saved (after its redirect). */
  Querystring: { step?: string; saved?: string };
}>;

export function frameOf(session: EmbedSession, tenant: Tenant): PageFrame {
  return {
    locale: localeOf(session.locale),
    operator: tenant.name,
    returnUrl: session.return_url,
    origins: tenant.embed_origins,
  };
}

/** A frame for a page that knows no session: English, framed nowhere. */
export const NO_SESSION: PageFrame = { locale: 'en', operator: '', returnUrl: null, origins: [] };

/** Nothing from elsewhere, no inline script; framed only by the tenant's registered origins ('none' without any). */
const csp = (origins: string[]) =>
  `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors ${
    origins.length ? origins.join(' ') : "'none'"
  }`;

export function send(reply: FastifyReply, status: number, frame: PageFrame, body: Html) {
  return reply
    .code(status)
    .header('content-security-policy', csp(frame.origins))
    .type('text/html; charset=utf-8')
    .send(body.value);
}

export function layout(frame: PageFrame, title: string, body: Html): Html {
  const words = MESSAGES[frame.locale];
  return html`<!doctype html>
    <html lang="${frame.locale}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title}</title>
        <link rel="stylesheet" href="/embeds/assets/embed.css" />
        <script src="/embeds/assets/embed-page.js" defer></script>
      </head>
      <body
        data-origins="${JSON.stringify(frame.origins)}"
        ${frame.message ? html` data-message="${JSON.stringify(frame.message)}"` : ''}
      >
        <main id="main">
          ${errorSummary(words, frame.errors)}
          ${frame.notice ? html`<p class="notice" role="status">${frame.notice}</p>` : ''}
          <h1>${title}</h1>
          ${body}
          ${frame.returnUrl ? html`<p class="return"><a href="${frame.returnUrl}" target="_top" rel="noreferrer">${words.returnTo(frame.operator)}</a></p>` : ''}
          <p class="small">${words.help}</p>
          <p class="small">${words.providedBy(frame.operator)}</p>
        </main>
      </body>
    </html>`;
}

function errorSummary(words: Messages, errors: PageFrame['errors']): Html | '' {
  if (!errors?.length) return '';
  return html`<div class="error-summary" role="alert" tabindex="-1" data-focus>
    <h2>${words.errorSummaryTitle}</h2>
    <ul>
      ${errors.map((e) => (e.field ? html`<li><a href="#${e.field}">${e.message}</a></li>` : html`<li>${e.message}</li>`))}
    </ul>
  </div>`;
}

/** The error of one field, above it, and whether it has one (for its aria-describedby and aria-invalid). */
export function fieldError(
  errors: PageFrame['errors'],
  field: string,
): { text: Html | ''; invalid: boolean } {
  const error = errors?.find((e) => e.field === field);
  return {
    text: error ? html`<p class="field-error" id="${field}-error">${error.message}</p>` : '',
    invalid: error !== undefined,
  };
}

/** The operator's own words for the page (session's operator_notice), as plain text. */
export const operatorNotice = (text: string | null) =>
  text ? html`<p class="operator-notice">${text}</p>` : '';

/** A page that can only say what went wrong (an unknown, expired or spent session). */
export const problem = (frame: PageFrame, message: string): Html =>
  layout(frame, MESSAGES[frame.locale].errorSummaryTitle, html`<p>${message}</p>`);

/** What an error says to the player, in their language, and the field it concerns. */
export function explain(error: AppError, frame: PageFrame): { field?: string; message: string } {
  const words = MESSAGES[frame.locale].errors;
  const seconds = Number(error.extra?.retry_after_seconds ?? 0);
  const left = Number(error.extra?.attempts_left ?? 0);
  const messages: Partial<Record<string, { field?: string; message: string }>> = {
    invalid_code: { field: 'code', message: left > 0 ? words.wrongCode(left) : words.lastWrongCode },
    code_expired: { message: words.codeExpired },
    code_locked: { message: words.codeLocked },
    code_not_requested: { message: words.codeNotRequested },
    resend_too_early: { message: words.resendTooEarly(seconds) },
    too_many_codes: { message: words.tooManyCodes(Math.ceil(seconds / 60)) },
    already_excluded: { message: words.alreadyExcluded },
    embed_session_expired: { message: words.sessionExpired(frame.operator) },
    invalid_embed_token: { message: words.sessionInvalid },
    embed_session_completed: { message: words.sessionCompleted },
    below_minimum: { field: 'amount', message: words.belowMinimum },
    invalid_amount: { field: 'amount', message: words.enterAmount },
    pending_change_exists: { field: 'limit_type', message: words.pendingChange },
    limit_not_pending: { message: words.tooLateToCancel },
    currency_mismatch: { message: words.currencyMismatch },
  };
  return messages[error.code] ?? { message: words.generic };
}
