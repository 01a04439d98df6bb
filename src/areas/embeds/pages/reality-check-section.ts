import { html, type Html } from '../../../platform/html.js';
import { REALITY_CHECK_CHOICES } from '../embeds.rules.js';
import { MESSAGES } from '../locales/index.js';
import { formatSeconds } from './limit-section.js';
import { fieldError, type Form, type PageFrame } from './page.js';

/** The limits page's "reality checks" section: the interval in force, whose choice it is, and the choices. */

/** The player's interval as the limits door answers it (seconds; `interval_seconds` null: the default's). */
export interface RealityCheckShown {
  interval_seconds: number | null;
  default_interval_seconds: number;
  reality_check_interval_seconds: number;
}

/** The form's value for "the operator's default"; every other value is one of REALITY_CHECK_CHOICES. */
const DEFAULT_CHOICE = 'default';

/** A posted choice → seconds, null for the default, undefined for anything the page does not offer. */
export function chosenInterval(form: Form): number | null | undefined {
  if (form.interval === DEFAULT_CHOICE) return null;
  return REALITY_CHECK_CHOICES.find((seconds) => String(seconds) === form.interval);
}

/** What a saved choice says, in the player's words: the new interval, from their next session. */
export function realityCheckNotice(frame: PageFrame, shown: RealityCheckShown): string {
  const words = MESSAGES[frame.locale].realityCheck;
  const interval = formatSeconds(frame.locale, shown.reality_check_interval_seconds);
  return shown.interval_seconds === null
    ? words.savedDefault(frame.operator, interval)
    : words.saved(interval);
}

export function realityCheckSection(
  frame: PageFrame,
  page: { action: string; realityCheck: RealityCheckShown },
): Html {
  const words = MESSAGES[frame.locale].realityCheck;
  const {
    interval_seconds: own,
    default_interval_seconds,
    reality_check_interval_seconds,
  } = page.realityCheck;
  const shown = (seconds: number) => formatSeconds(frame.locale, seconds);
  const checked = own === null ? DEFAULT_CHOICE : String(own);
  const error = fieldError(frame.errors, 'reality_check-interval');
  const choice = (value: string, label: string) =>
    html`<div class="choice">
      <input
        type="radio"
        name="interval"
        value="${value}"
        id="reality_check-${value}"
        ${value === checked ? html` checked` : ''}
      />
      <label for="reality_check-${value}">${label}</label>
    </div>`;
  return html`<p>${words.intro}</p>
    <p class="done">${words.current(shown(reality_check_interval_seconds))}</p>
    <p>${own === null ? words.operatorDefault(frame.operator) : words.yourChoice}</p>
    <form method="post" action="${page.action}" novalidate>
      <fieldset
        id="reality_check-interval"
        aria-describedby="reality_check-hint${error.invalid ? ' reality_check-interval-error' : ''}"
      >
        <legend>${words.legend}</legend>
        <p class="hint" id="reality_check-hint">${words.hint}</p>
        ${error.text} ${REALITY_CHECK_CHOICES.map((seconds) => choice(String(seconds), shown(seconds)))}
        ${choice(DEFAULT_CHOICE, words.useDefault(frame.operator, shown(default_interval_seconds)))}
      </fieldset>
      <button type="submit">${words.save}</button>
    </form>`;
}
