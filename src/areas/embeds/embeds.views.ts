import { html, type Html } from '../../console/html.js';
import { currencyDecimals } from '../../platform/fx.js';
import { DURATIONS, type Duration } from '../exclusions/exclusions.rules.js';
import { LIMIT_TYPES } from '../limits/limits.rules.js';
import type { Static } from 'typebox';
import type { LimitView } from '../limits/limits.schemas.js';
import type { Locale } from './embeds.rules.js';
import { formatMoney, formatTime, MESSAGES, type Messages } from './locales/index.js';

/**
 * The embeds' pages, rendered on the server in the player's language: one thing per page, plain words, an error
 * summary that links to its field, and everything usable without script (docs/embeds.md).
 */

export interface PageFrame {
  locale: Locale;
  operator: string;
  returnUrl: string | null;
  /** Origins the page may tell about itself (postMessage): the tenant's registered framing origins. */
  origins: string[];
  errors?: { field?: string; message: string }[];
  notice?: string | undefined;
  /** What the page tells its parent on arrival (completion, a changed limit). */
  message?: Record<string, unknown> | undefined;
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

const fieldError = (errors: PageFrame['errors'], field: string) => {
  const error = errors?.find((e) => e.field === field);
  return error ? html`<p class="field-error" id="${field}-error">${error.message}</p>` : '';
};

const notice = (text: string | null) => (text ? html`<p class="operator-notice">${text}</p>` : '');

/** `jane.doe@example.com` → `j•••@example.com`: enough for the player to recognise, little for anyone else. */
export const maskEmail = (email: string) => `${email[0]}•••${email.slice(email.lastIndexOf('@'))}`;

export function chooseDuration(
  frame: PageFrame,
  page: { action: string; operatorNotice: string | null; chosen?: Duration | undefined },
): Html {
  const words = MESSAGES[frame.locale].exclusion;
  const invalid = frame.errors?.some((e) => e.field === 'duration');
  return layout(
    frame,
    words.title,
    html`<p>${words.intro(frame.operator)}</p>
      <p>${words.register}</p>
      ${notice(page.operatorNotice)}
      <form method="post" action="${page.action}" novalidate>
        <fieldset id="duration" ${invalid ? html` aria-describedby="duration-error"` : ''}>
          <legend>${words.durationLegend}</legend>
          ${fieldError(frame.errors, 'duration')}
          ${DURATIONS.map(
            (duration) =>
              html`<div class="choice">
                <input
                  type="radio"
                  name="duration"
                  value="${duration}"
                  id="duration-${duration}"
                  ${
                    page.chosen === duration ? html` checked` : ''
                  }${duration === 'duration_permanent' ? html` aria-describedby="permanent-hint"` : ''}
                />
                <label for="duration-${duration}">${words.durations[duration]}</label>
                ${duration === 'duration_permanent' ? html`<p class="hint" id="permanent-hint">${words.permanentHint}</p>` : ''}
              </div>`,
          )}
        </fieldset>
        <button type="submit">${words.continue}</button>
      </form>`,
  );
}

export function confirmPermanent(frame: PageFrame, page: { action: string; back: string }): Html {
  const words = MESSAGES[frame.locale].exclusion;
  const invalid = frame.errors?.some((e) => e.field === 'confirm_permanent');
  return layout(
    frame,
    words.permanentTitle,
    html`<p class="warning-text">${words.permanentText(frame.operator)}</p>
      <form method="post" action="${page.action}" novalidate>
        <input type="hidden" name="duration" value="duration_permanent" />
        ${fieldError(frame.errors, 'confirm_permanent')}
        <div class="choice">
          <input
            type="checkbox"
            name="confirm_permanent"
            value="yes"
            id="confirm_permanent"
            ${invalid ? html` aria-describedby="confirm_permanent-error"` : ''}
          />
          <label for="confirm_permanent">${words.permanentConfirm}</label>
        </div>
        <button type="submit" class="warning">${words.permanentSubmit}</button>
      </form>
      <p><a href="${page.back}">${words.chooseAnother}</a></p>`,
  );
}

export function enterCode(
  frame: PageFrame,
  page: {
    confirmAction: string;
    resendAction: string;
    back: string;
    email: string;
    duration: Duration;
    codeExpiresAt: Date;
    resendAt: Date;
    now: Date;
  },
): Html {
  const words = MESSAGES[frame.locale].exclusion;
  const invalid = frame.errors?.some((e) => e.field === 'code');
  const resendIn = Math.max(0, Math.ceil((page.resendAt.getTime() - page.now.getTime()) / 1000));
  return layout(
    frame,
    words.codeTitle,
    html`<p>
        ${
          page.duration === 'duration_permanent'
            ? words.codeSentPermanent(maskEmail(page.email))
            : words.codeSent(maskEmail(page.email), words.durations[page.duration])
        }
      </p>
      <p>${words.codeExpiresAt(formatTime(frame.locale, page.codeExpiresAt))}</p>
      <form method="post" action="${page.confirmAction}" novalidate>
        <label for="code">${words.codeLabel}</label>
        <p class="hint" id="code-hint">${words.codeHint}</p>
        ${fieldError(frame.errors, 'code')}
        <input
          class="code"
          type="text"
          name="code"
          id="code"
          inputmode="numeric"
          autocomplete="one-time-code"
          maxlength="6"
          spellcheck="false"
          aria-describedby="code-hint${invalid ? ' code-error' : ''}"
          ${invalid ? html` aria-invalid="true"` : ''}
        />
        <button type="submit">${words.confirm}</button>
      </form>
      <form method="post" action="${page.resendAction}" class="secondary-form">
        <input type="hidden" name="duration" value="${page.duration}" />
        ${page.duration === 'duration_permanent' ? html`<input type="hidden" name="confirm_permanent" value="yes" />` : ''}
        <button type="submit" class="secondary" data-resend-in="${resendIn}">${words.resend}</button>
        ${resendIn > 0 ? html`<p class="hint">${words.resendFrom(formatTime(frame.locale, page.resendAt))}</p>` : ''}
      </form>
      <p><a href="${page.back}">${words.chooseAnother}</a></p>`,
  );
}

export function excluded(
  frame: PageFrame,
  page: { expiresAt: Date | null; operatorNotice: string | null },
): Html {
  const words = MESSAGES[frame.locale].exclusion;
  return layout(
    frame,
    words.doneTitle,
    html`<p class="done">
        ${page.expiresAt ? words.doneUntil(formatTime(frame.locale, page.expiresAt)) : words.donePermanent}
      </p>
      <p>${words.doneNext}</p>
      ${notice(page.operatorNotice)}`,
  );
}

export const money = (locale: Locale, cents: number, currency: string) =>
  formatMoney(locale, cents, currency, currencyDecimals(currency));

export function depositLimits(
  frame: PageFrame,
  page: {
    action: string;
    cancelAction: (limitId: string) => string;
    currency: string;
    limits: Static<typeof LimitView>[];
    operatorNotice: string | null;
    typed?: { limit_type?: string; amount?: string } | undefined;
  },
): Html {
  const words = MESSAGES[frame.locale].limits;
  const amount = (cents: number) => money(frame.locale, cents, page.currency);
  const amountInvalid = frame.errors?.some((e) => e.field === 'amount');
  return layout(
    frame,
    words.title,
    html`<p>${words.intro}</p>
      ${notice(page.operatorNotice)}
      ${
        page.limits.length === 0
          ? html`<p>${words.none}</p>`
          : html`<div class="table-wrap">
              <table>
                <caption>
                  ${words.caption}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">${words.period}</th>
                    <th scope="col">${words.limit}</th>
                    <th scope="col">${words.deposited}</th>
                    <th scope="col">${words.remaining}</th>
                    <th scope="col">${words.resets}</th>
                    <th scope="col">${words.waiting}</th>
                  </tr>
                </thead>
                <tbody>
                  ${page.limits.map(
                    (limit) =>
                      html`<tr>
                        <th scope="row">${words.types[limit.limit_type]}</th>
                        <td>${amount(limit.amount_cents)}</td>
                        <td>${amount(limit.spent_cents + limit.held_cents)}</td>
                        <td>${amount(limit.remaining_cents)}</td>
                        <td>
                          ${limit.next_reset_at ? formatTime(frame.locale, new Date(limit.next_reset_at)) : words.noReset}
                        </td>
                        <td>
                          ${
                            limit.pending_change
                              ? html`${words.pending(
                                    amount(limit.pending_change.amount_cents),
                                    formatTime(frame.locale, new Date(limit.pending_change.effective_from)),
                                  )}
                                  <form
                                    method="post"
                                    action="${page.cancelAction(limit.pending_change.limit_id)}"
                                  >
                                    <button type="submit" class="secondary">${words.cancel}</button>
                                  </form>`
                              : '—'
                          }
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      <form method="post" action="${page.action}" novalidate>
        <fieldset>
          <legend>${words.formLegend}</legend>
          <label for="limit_type">${words.period}</label>
          ${fieldError(frame.errors, 'limit_type')}
          <select name="limit_type" id="limit_type">
            ${LIMIT_TYPES.map(
              (type) =>
                html`<option value="${type}" ${page.typed?.limit_type === type ? html` selected` : ''}>
                  ${words.types[type]}
                </option>`,
            )}
          </select>
          <label for="amount">${words.amountLabel(page.currency)}</label>
          <p class="hint" id="amount-hint">${words.amountHint}</p>
          ${fieldError(frame.errors, 'amount')}
          <input
            type="text"
            name="amount"
            id="amount"
            inputmode="decimal"
            autocomplete="off"
            value="${page.typed?.amount ?? ''}"
            aria-describedby="amount-hint${amountInvalid ? ' amount-error' : ''}"
            ${amountInvalid ? html` aria-invalid="true"` : ''}
          />
        </fieldset>
        <button type="submit">${words.save}</button>
      </form>`,
  );
}

/** A page that can only say what went wrong (an unknown, expired or spent session). */
export function problem(frame: PageFrame, message: string): Html {
  return layout(frame, MESSAGES[frame.locale].errorSummaryTitle, html`<p>${message}</p>`);
}
