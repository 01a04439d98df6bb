import { html, type Html } from '../../../platform/html.js';
import { currencyDecimals, formatMoney } from '../../../platform/money.js';
import { WINDOW_TYPES, type LimitKind, type LimitType } from '../../limits/index.js';
import type { Locale } from '../embeds.rules.js';
import { formatTime, MESSAGES } from '../locales/index.js';
import { fieldError, type Form, type PageFrame } from './page.js';

/** One section of the limits page per kind of limit: the limits in force with their use, and the form that changes one. */

/** The kinds the page offers, in its order: money first, as the player meets them, then time. */
export const EMBED_LIMIT_KINDS = [
  'deposit',
  'loss',
  'wager',
  'play_time',
] as const satisfies readonly LimitKind[];

/** The periods each kind takes: the rolling windows, and for play time the single session too. */
export const TYPES_OF: Record<LimitKind, readonly LimitType[]> = {
  deposit: WINDOW_TYPES,
  loss: WINDOW_TYPES,
  wager: WINDOW_TYPES,
  play_time: [...WINDOW_TYPES, 'limit_session'],
};

/** What the page reads of a limit of any kind: a deposit limit's record has no limit_kind and no seconds. */
export interface AnyLimit {
  limit_id: string;
  limit_kind?: LimitKind;
  limit_type: LimitType;
  amount_cents?: number;
  amount_seconds?: number;
  current_limit_cents?: number | null;
  current_limit_seconds?: number | null;
  effective_from: string | Date;
  status: string;
}

/** A limit in force with its use so far (play time's use is shown when the listing gives it). */
export interface AnyLimitView extends AnyLimit {
  spent_cents?: number;
  held_cents?: number;
  remaining_cents?: number;
  spent_seconds?: number;
  remaining_seconds?: number;
  next_reset_at: string | Date | null;
  pending_change: AnyLimit | null;
}

export const kindOf = (limit: AnyLimit): LimitKind => limit.limit_kind ?? 'deposit';
export const amountOf = (limit: AnyLimit) => limit.amount_seconds ?? limit.amount_cents ?? 0;
export const currentOf = (limit: AnyLimit) => limit.current_limit_seconds ?? limit.current_limit_cents ?? 0;

/** `250`, `250.5`, `250,50`, `1 000,50` or `1.000,50` → minor units of the currency; undefined if not an amount. */
export function parseAmount(typed: string, currency: string): number | undefined {
  const digits = currencyDecimals(currency);
  const compact = typed.replace(/[\s\u00a0\u202f']/g, '');
  const separator = Math.max(compact.lastIndexOf(','), compact.lastIndexOf('.'));
  // The last separator is the decimal one only when what follows fits the currency's decimals; else it groups.
  const decimals =
    separator >= 0 && compact.length - separator - 1 <= digits ? compact.slice(separator + 1) : '';
  const whole = (
    decimals || separator === compact.length - 1 ? compact.slice(0, separator) : compact
  ).replace(/[.,]/g, '');
  if (!/^\d{1,13}$/.test(whole) || !/^\d*$/.test(decimals)) return undefined;
  const cents = Number(whole) * 10 ** digits + Number(decimals.padEnd(digits, '0') || '0');
  return cents > 0 ? cents : undefined;
}

/** Hours and minutes as typed (either may be empty; `90` minutes is fine) → seconds; undefined if not a time. */
export function parseTime(hours: string, minutes: string): number | undefined {
  const [h, m] = [hours.trim(), minutes.trim()];
  if (!/^\d{0,4}$/.test(h) || !/^\d{0,5}$/.test(m)) return undefined;
  const seconds = Number(h || '0') * 3600 + Number(m || '0') * 60;
  return seconds > 0 ? seconds : undefined;
}

/** 5400 → "1 hour, 30 minutes" in the player's language. */
export function formatSeconds(locale: Locale, seconds: number): string {
  const unit = (value: number, name: 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'long' }).format(value);
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const parts = [
    ...(h ? [unit(h, 'hour')] : []),
    ...(m || (!h && !s) ? [unit(m, 'minute')] : []),
    ...(s ? [unit(s, 'second')] : []),
  ];
  return new Intl.ListFormat(locale, { type: 'unit', style: 'long' }).format(parts);
}

/** A limit's amount as the player reads it: money in the session's currency, play time in hours and minutes. */
export function shownAmount(locale: Locale, currency: string, kind: LimitKind, amount: number): string {
  return kind === 'play_time' ? formatSeconds(locale, amount) : formatMoney(amount, currency, { locale });
}

export function limitSection(
  frame: PageFrame,
  page: {
    kind: LimitKind;
    action: string;
    currency: string;
    rows: AnyLimitView[];
    /** What the player typed into this section's form, when it comes back with an error. */
    typed?: Form | undefined;
  },
): Html {
  const { kind } = page;
  const words = MESSAGES[frame.locale].limits;
  const own = words.kinds[kind];
  const shown = (amount: number) => shownAmount(frame.locale, page.currency, kind, amount);
  const when = (at: string | Date) => formatTime(frame.locale, new Date(at));
  const row = (limit: AnyLimitView) => {
    const used = limit.spent_seconds ?? (limit.spent_cents ?? 0) + (limit.held_cents ?? 0);
    const remaining = limit.remaining_seconds ?? limit.remaining_cents;
    const item = (term: string, value: Html | string) =>
      html`<div>
        <dt>${term}</dt>
        <dd>${value}</dd>
      </div>`;
    return html`<div class="limit">
      <h3>${words.types[limit.limit_type]}</h3>
      <dl>
        ${item(words.limit, shown(amountOf(limit)))}
        ${
          remaining === undefined
            ? ''
            : html`${item(own.used, shown(used))}${item(own.remaining, shown(remaining))}${item(
                words.resets,
                limit.next_reset_at ? when(limit.next_reset_at) : own.noReset,
              )}`
        }
        ${
          limit.pending_change
            ? item(
                words.waiting,
                html`${words.pending(shown(amountOf(limit.pending_change)), when(limit.pending_change.effective_from))}
                  <form method="post" action="${page.action}/${limit.pending_change.limit_id}/cancel">
                    <button type="submit" class="secondary">${words.cancel}</button>
                  </form>`,
              )
            : ''
        }
      </dl>
    </div>`;
  };
  const typeError = fieldError(frame.errors, `${kind}-limit_type`);
  return html`<p>${own.intro}</p>
    ${page.rows.length === 0 ? html`<p>${own.none}</p>` : page.rows.map(row)}
    <form method="post" action="${page.action}" novalidate>
      <input type="hidden" name="limit_kind" value="${kind}" />
      <fieldset>
        <legend>${own.formLegend}</legend>
        <label for="${kind}-limit_type">${words.period}</label>
        ${typeError.text}
        <select name="limit_type" id="${kind}-limit_type">
          ${TYPES_OF[kind].map(
            (type) =>
              html`<option value="${type}" ${page.typed?.limit_type === type ? html` selected` : ''}>
                ${words.types[type]}
              </option>`,
          )}
        </select>
        ${kind === 'play_time' ? timeFields(frame, page.typed) : amountField(frame, kind, page)}
      </fieldset>
      <button type="submit">${own.save}</button>
    </form>`;
}

function amountField(
  frame: PageFrame,
  kind: LimitKind,
  page: { currency: string; typed?: Form | undefined },
): Html {
  const words = MESSAGES[frame.locale].limits;
  const id = `${kind}-amount`;
  const error = fieldError(frame.errors, id);
  return html`<label for="${id}">${words.amountLabel(page.currency)}</label>
    <p class="hint" id="${id}-hint">${words.amountHint}</p>
    ${error.text}
    <input
      type="text"
      name="amount"
      id="${id}"
      inputmode="decimal"
      autocomplete="off"
      value="${page.typed?.amount ?? ''}"
      aria-describedby="${id}-hint${error.invalid ? ` ${id}-error` : ''}"
      ${error.invalid ? html` aria-invalid="true"` : ''}
    />`;
}

/** Play time is typed as hours and minutes, the error (if any) on the hours, where the summary's link leads. */
function timeFields(frame: PageFrame, typed: Form | undefined): Html {
  const words = MESSAGES[frame.locale].limits;
  const error = fieldError(frame.errors, 'play_time-hours');
  const input = (name: 'hours' | 'minutes', label: string) =>
    html`<div>
      <label for="play_time-${name}">${label}</label>
      <input
        type="text"
        class="short"
        name="${name}"
        id="play_time-${name}"
        inputmode="numeric"
        autocomplete="off"
        value="${typed?.[name] ?? ''}"
        ${error.invalid ? html` aria-invalid="true"` : ''}
      />
    </div>`;
  return html`<fieldset
    class="time"
    aria-describedby="play_time-hint${error.invalid ? ' play_time-hours-error' : ''}"
  >
    <legend>${words.timeLegend}</legend>
    <p class="hint" id="play_time-hint">${words.timeHint}</p>
    ${error.text}
    <div class="time-parts">${input('hours', words.hours)} ${input('minutes', words.minutes)}</div>
  </fieldset>`;
}
