import { html, type Html } from '../../../platform/html.js';
import { endsAt, TIME_OUT_DURATIONS, type TimeOutDuration } from '../../time-outs/index.js';
import { formatTime, MESSAGES } from '../locales/index.js';
import { fieldError, layout, type PageFrame } from './page.js';

/** The limits page's "take a break" section, and the page of its own that confirms a break before it starts. */

/** The time-out in force, as far as the page shows it. */
export interface TimeOutShown {
  ends_at: Date;
}

/**
 * Without a break in force: what a break is, and the four durations. During one: its end first, and only the
 * durations that would end later (a shorter or equal one would change nothing: a break is never shortened).
 */
export function timeOutSection(
  frame: PageFrame,
  page: { action: string; timeOut: TimeOutShown | null; now: Date },
): Html {
  const words = MESSAGES[frame.locale].timeOut;
  const { timeOut } = page;
  const offered = TIME_OUT_DURATIONS.filter((d) => !timeOut || endsAt(d, page.now) > timeOut.ends_at);
  const error = fieldError(frame.errors, 'time_out-duration');
  const describedBy = [timeOut ? 'time_out-hint' : '', error.invalid ? 'time_out-duration-error' : '']
    .filter(Boolean)
    .join(' ');
  const status =
    timeOut &&
    html`<p class="done">${words.inForce(formatTime(frame.locale, timeOut.ends_at))}</p>
      <p>${words.inForceNext}</p>`;
  const form = offered.length
    ? html`<form method="post" action="${page.action}" novalidate>
        <fieldset id="time_out-duration" ${describedBy ? html` aria-describedby="${describedBy}"` : ''}>
          <legend>${timeOut ? words.longerLegend : words.durationLegend}</legend>
          ${timeOut ? html`<p class="hint" id="time_out-hint">${words.longerHint}</p>` : ''} ${error.text}
          ${offered.map(
            (duration) =>
              html`<div class="choice">
                <input type="radio" name="duration" value="${duration}" id="time_out-${duration}" />
                <label for="time_out-${duration}">${words.durations[duration]}</label>
              </div>`,
          )}
        </fieldset>
        <button type="submit">${words.continue}</button>
      </form>`
    : '';
  return html`${timeOut ? status : html`<p>${words.intro(frame.operator)}</p>`} ${form}`;
}

/** The confirmation step: when the break would end, that it cannot be undone, and a way back. */
export function confirmTimeOut(
  frame: PageFrame,
  page: { action: string; back: string; duration: TimeOutDuration; now: Date },
): Html {
  const words = MESSAGES[frame.locale].timeOut;
  const duration = words.durations[page.duration];
  return layout(
    frame,
    words.confirmTitle(duration),
    html`<p>${words.confirmUntil(formatTime(frame.locale, endsAt(page.duration, page.now)))}</p>
      <p class="warning-text">${words.confirmText(frame.operator)}</p>
      <form method="post" action="${page.action}" novalidate>
        <input type="hidden" name="duration" value="${page.duration}" />
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" class="warning">${words.confirmSubmit(duration)}</button>
      </form>
      <p><a href="${page.back}">${words.back}</a></p>`,
  );
}
