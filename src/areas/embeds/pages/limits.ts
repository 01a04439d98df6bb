import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import { html, type Html } from '../../../platform/html.js';
import type { Platform } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { currencyDecimals, formatMoney } from '../../../platform/money.js';
import {
  WINDOW_TYPES,
  type WindowType,
  type DepositLimitRecord,
  type LimitView,
} from '../../limits/index.js';
import { cancelEmbedLimit, embedLimits, setEmbedLimit } from '../service/limits.js';
import { formatTime, MESSAGES } from '../locales/index.js';
import {
  explain,
  fieldError,
  layout,
  operatorNotice,
  send,
  type Form,
  type Page,
  type PageFrame,
  type TokenRequest,
} from './page.js';

/** The deposit-limits embed's page: the limits in force with their spend, and the form that changes one. */

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

function depositLimits(
  frame: PageFrame,
  page: Page['paths'] & {
    currency: string;
    rows: Static<typeof LimitView>[];
    operatorNotice: string | null;
    typed?: Form | undefined;
  },
): Html {
  const words = MESSAGES[frame.locale].limits;
  const amount = (cents: number) => formatMoney(cents, page.currency, { locale: frame.locale });
  const typeError = fieldError(frame.errors, 'limit_type');
  const amountError = fieldError(frame.errors, 'amount');
  const table = html`<div class="table-wrap">
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
        ${page.rows.map(
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
                        <form method="post" action="${page.limits}/${limit.pending_change.limit_id}/cancel">
                          <button type="submit" class="secondary">${words.cancel}</button>
                        </form>`
                    : '—'
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
  return layout(
    frame,
    words.title,
    html`<p>${words.intro}</p>
      ${operatorNotice(page.operatorNotice)} ${page.rows.length === 0 ? html`<p>${words.none}</p>` : table}
      <form method="post" action="${page.limits}" novalidate>
        <fieldset>
          <legend>${words.formLegend}</legend>
          <label for="limit_type">${words.period}</label>
          ${typeError.text}
          <select name="limit_type" id="limit_type">
            ${WINDOW_TYPES.map(
              (type) =>
                html`<option value="${type}" ${page.typed?.limit_type === type ? html` selected` : ''}>
                  ${words.types[type]}
                </option>`,
            )}
          </select>
          <label for="amount">${words.amountLabel(page.currency)}</label>
          <p class="hint" id="amount-hint">${words.amountHint}</p>
          ${amountError.text}
          <input
            type="text"
            name="amount"
            id="amount"
            inputmode="decimal"
            autocomplete="off"
            value="${page.typed?.amount ?? ''}"
            aria-describedby="amount-hint${amountError.invalid ? ' amount-error' : ''}"
            ${amountError.invalid ? html` aria-invalid="true"` : ''}
          />
        </fieldset>
        <button type="submit">${words.save}</button>
      </form>`,
  );
}

interface Outcome {
  status?: number;
  errors?: PageFrame['errors'];
  notice?: string;
  /** The limit changed: told to the parent page. */
  changed?: DepositLimitRecord;
  typed?: Form;
}

/** The limits page of the session, with what the last form post did. */
export async function limitsPage(
  platform: Platform,
  page: Page,
  request: TokenRequest,
  reply: FastifyReply,
  outcome: Outcome = {},
) {
  const { session, paths } = page;
  const { currency, limits } = await embedLimits(platform, request.params.token, request.id);
  const message = outcome.changed && {
    type: 'compliance-embed',
    event: 'limit_changed',
    embed_session_id: session.embed_session_id,
    limit_type: outcome.changed.limit_type,
    status: outcome.changed.status,
  };
  const frame = { ...page.frame, errors: outcome.errors, notice: outcome.notice, message };
  return send(
    reply,
    outcome.status ?? 200,
    frame,
    depositLimits(frame, {
      ...paths,
      currency,
      rows: limits,
      operatorNotice: session.operator_notice,
      typed: outcome.typed,
    }),
  );
}

/** The limits embed's form posts; `open` answers for a token that names no usable session. */
export function limitsRoutes(
  app: FastifyInstance,
  platform: Platform,
  open: (request: TokenRequest, reply: FastifyReply) => Promise<Page | undefined>,
): void {
  app.post('/embeds/:token/limits', async (request: TokenRequest, reply) => {
    const page = await open(request, reply);
    if (!page) return reply;
    const { locale } = page.frame;
    const words = MESSAGES[locale];
    const form = request.body ?? {};
    const limitType = form.limit_type as WindowType | undefined;
    const amount = parseAmount(form.amount ?? '', page.session.currency!);
    const errors = [
      ...(limitType && WINDOW_TYPES.includes(limitType)
        ? []
        : [{ field: 'limit_type', message: words.errors.chooseType }]),
      ...(amount === undefined ? [{ field: 'amount', message: words.errors.enterAmount }] : []),
    ];
    if (errors.length)
      return limitsPage(platform, page, request, reply, { status: 400, errors, typed: form });
    try {
      const { limit } = await setEmbedLimit(platform, request.params.token, request.id, {
        limit_type: limitType!,
        amount_cents: amount!,
      });
      const shown = (cents: number) => formatMoney(cents, limit.currency, { locale });
      const period = words.limits.types[limit.limit_type];
      const notice =
        limit.status === 'pending'
          ? words.limits.increaseWaits(
              period,
              shown(limit.amount_cents),
              formatTime(locale, new Date(limit.effective_from)),
              shown(limit.current_limit_cents ?? 0),
            )
          : words.limits.setNow(period, shown(limit.amount_cents));
      return limitsPage(platform, page, request, reply, { notice, changed: limit });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const errors = [explain(error, page.frame)];
      return limitsPage(platform, page, request, reply, { status: error.statusCode, errors, typed: form });
    }
  });

  app.post('/embeds/:token/limits/:limit_id/cancel', async (request: TokenRequest, reply) => {
    const page = await open(request, reply);
    if (!page) return reply;
    const words = MESSAGES[page.frame.locale].limits;
    try {
      const limit = await cancelEmbedLimit(
        platform,
        request.params.token,
        request.id,
        request.params.limit_id!,
      );
      const notice = words.cancelled(
        words.types[limit.limit_type],
        formatMoney(limit.current_limit_cents ?? 0, limit.currency, { locale: page.frame.locale }),
      );
      return limitsPage(platform, page, request, reply, { notice, changed: limit });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return limitsPage(platform, page, request, reply, {
        status: error.statusCode,
        errors: [explain(error, page.frame)],
      });
    }
  });
}
