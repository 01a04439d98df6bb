import type { FastifyInstance, FastifyReply } from 'fastify';
import { html, type Html } from '../../../platform/html.js';
import type { Platform } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import type { LimitKind, LimitType } from '../../limits/index.js';
import { TIME_OUT_DURATIONS, type TimeOutDuration } from '../../time-outs/index.js';
import {
  cancelEmbedLimit,
  embedControls,
  setEmbedLimit,
  setEmbedRealityCheck,
  takeEmbedTimeOut,
} from '../service/limits.js';
import { formatTime, MESSAGES } from '../locales/index.js';
import {
  amountOf,
  currentOf,
  EMBED_LIMIT_KINDS,
  kindOf,
  limitSection,
  parseAmount,
  parseTime,
  shownAmount,
  TYPES_OF,
  type AnyLimit,
} from './limit-section.js';
import { chosenInterval, realityCheckNotice, realityCheckSection } from './reality-check-section.js';
import { confirmTimeOut, timeOutSection } from './time-out-section.js';
import {
  explain,
  layout,
  operatorNotice,
  send,
  type Form,
  type Page,
  type PageFrame,
  type TokenRequest,
} from './page.js';

/**
 * The limits embed's page: a section per kind of limit (each its limits in force, their use, what is pending and
 * when it goes live, and a form), then the reality-check interval, then the break. Each section is one entry of
 * `sections`, so another slots in.
 */

interface Section {
  id: string;
  heading: string;
  body: Html;
}

function limitsBody(frame: PageFrame, operatorText: string | null, sections: Section[]): Html {
  const words = MESSAGES[frame.locale].limits;
  return layout(
    frame,
    words.title,
    html`<p>${words.intro}</p>
      ${operatorNotice(operatorText)}
      <nav aria-labelledby="contents-heading" class="contents">
        <h2 id="contents-heading">${words.contents}</h2>
        <ul>
          ${sections.map((s) => html`<li><a href="#${s.id}">${s.heading}</a></li>`)}
        </ul>
      </nav>
      ${sections.map(
        (s) =>
          html`<section id="${s.id}" aria-labelledby="${s.id}-heading" class="control">
            <h2 id="${s.id}-heading">${s.heading}</h2>
            ${s.body}
          </section>`,
      )}`,
  );
}

interface Outcome {
  status?: number;
  errors?: PageFrame['errors'];
  notice?: string;
  /** What the page tells its parent (a changed limit, a break taken). */
  message?: Record<string, unknown> | undefined;
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
  const { currency, limits, timeOut, realityCheck } = await embedControls(
    platform,
    request.params.token,
    request.id,
  );
  // After a saved reality-check interval's redirect, the page says what is now in force.
  const saved = request.query?.saved === 'reality_check';
  const notice = outcome.notice ?? (saved ? realityCheckNotice(page.frame, realityCheck) : undefined);
  const frame = { ...page.frame, errors: outcome.errors, notice, message: outcome.message };
  const words = MESSAGES[frame.locale];
  const typedKind = outcome.typed && (outcome.typed.limit_kind ?? 'deposit');
  const sections: Section[] = [
    ...EMBED_LIMIT_KINDS.map((kind) => ({
      id: kind,
      heading: words.limits.kinds[kind].heading,
      body: limitSection(frame, {
        kind,
        action: paths.limits,
        currency,
        rows: limits.filter((l) => kindOf(l) === kind),
        typed: typedKind === kind ? outcome.typed : undefined,
      }),
    })),
    {
      id: 'reality_check',
      heading: words.realityCheck.heading,
      body: realityCheckSection(frame, { action: paths.realityCheck, realityCheck }),
    },
    {
      id: 'time_out',
      heading: words.timeOut.heading,
      body: timeOutSection(frame, {
        action: paths.timeOut,
        timeOut,
        now: platform.clock.now(),
      }),
    },
  ];
  return send(reply, outcome.status ?? 200, frame, limitsBody(frame, session.operator_notice, sections));
}

/** What a limit's change says, in the player's words. */
function changeNotice(frame: PageFrame, currency: string, limit: AnyLimit, cancelled = false): string {
  const words = MESSAGES[frame.locale].limits;
  const kind = kindOf(limit);
  const shown = (amount: number) => shownAmount(frame.locale, currency, kind, amount);
  const [name, period] = [words.kinds[kind].name, words.types[limit.limit_type]];
  if (cancelled) return words.cancelled(name, period, shown(currentOf(limit)));
  return limit.status === 'pending'
    ? words.increaseWaits(
        name,
        period,
        shown(amountOf(limit)),
        formatTime(frame.locale, new Date(limit.effective_from)),
        shown(currentOf(limit)),
      )
    : words.setNow(name, period, shown(amountOf(limit)));
}

/** The limits API's error on this kind's form: its field named as the section names it. */
function limitError(error: AppError, frame: PageFrame, kind: LimitKind) {
  if (kind === 'play_time' && error.code === 'below_minimum')
    return { field: 'play_time-hours', message: MESSAGES[frame.locale].errors.timeTooShort };
  const explained = explain(error, frame);
  if (!explained.field) return explained;
  const field = explained.field === 'amount' && kind === 'play_time' ? 'hours' : explained.field;
  return { ...explained, field: `${kind}-${field}` };
}

/** The limits embed's form posts; `open` answers for a token that names no usable session. */
export function limitsRoutes(
  app: FastifyInstance,
  platform: Platform,
  open: (request: TokenRequest, reply: FastifyReply) => Promise<Page | undefined>,
): void {
  const changed = (page: Page, limit: AnyLimit) => ({
    type: 'compliance-embed',
    event: 'limit_changed',
    embed_session_id: page.session.embed_session_id,
    limit_kind: kindOf(limit),
    limit_type: limit.limit_type,
    status: limit.status,
  });

  app.post('/embeds/:token/limits', async (request: TokenRequest, reply) => {
    const page = await open(request, reply);
    if (!page) return reply;
    const words = MESSAGES[page.frame.locale].errors;
    const form = request.body ?? {};
    // A form without a kind is the deposit limits' (as the page was before it offered other kinds).
    const kind = EMBED_LIMIT_KINDS.find((k) => k === form.limit_kind) ?? 'deposit';
    const limitType = form.limit_type as LimitType | undefined;
    const amount =
      kind === 'play_time'
        ? parseTime(form.hours ?? '', form.minutes ?? '')
        : parseAmount(form.amount ?? '', page.session.currency!);
    const errors = [
      ...(limitType && TYPES_OF[kind].includes(limitType)
        ? []
        : [{ field: `${kind}-limit_type`, message: words.chooseType }]),
      ...(amount !== undefined
        ? []
        : kind === 'play_time'
          ? [{ field: 'play_time-hours', message: words.enterTime }]
          : [{ field: `${kind}-amount`, message: words.enterAmount }]),
    ];
    const typed = { ...form, limit_kind: kind };
    if (errors.length) return limitsPage(platform, page, request, reply, { status: 400, errors, typed });
    try {
      const { limit } = await setEmbedLimit(platform, request.params.token, request.id, {
        limit_kind: kind,
        limit_type: limitType!,
        ...(kind === 'play_time' ? { amount_seconds: amount } : { amount_cents: amount }),
      });
      return limitsPage(platform, page, request, reply, {
        notice: changeNotice(page.frame, page.session.currency!, limit),
        message: changed(page, limit),
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const errors = [limitError(error, page.frame, kind)];
      return limitsPage(platform, page, request, reply, { status: error.statusCode, errors, typed });
    }
  });

  app.post('/embeds/:token/limits/:limit_id/cancel', async (request: TokenRequest, reply) => {
    const page = await open(request, reply);
    if (!page) return reply;
    try {
      const limit = await cancelEmbedLimit(
        platform,
        request.params.token,
        request.id,
        request.params.limit_id!,
      );
      return limitsPage(platform, page, request, reply, {
        notice: changeNotice(page.frame, page.session.currency!, limit, true),
        message: changed(page, limit),
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return limitsPage(platform, page, request, reply, {
        status: error.statusCode,
        errors: [explain(error, page.frame)],
      });
    }
  });

  // A reality-check interval is one of the offered ones or the operator's default; saved, the page shows it (303).
  app.post('/embeds/:token/reality-check', async (request: TokenRequest, reply) => {
    const page = await open(request, reply);
    if (!page) return reply;
    const seconds = chosenInterval(request.body ?? {});
    if (seconds === undefined) {
      const message = MESSAGES[page.frame.locale].errors.chooseReminder;
      const errors = [{ field: 'reality_check-interval', message }];
      return limitsPage(platform, page, request, reply, { status: 400, errors });
    }
    await setEmbedRealityCheck(platform, request.params.token, request.id, seconds);
    return reply.redirect(`${page.paths.page}?saved=reality_check#reality_check`, 303);
  });

  // A break is chosen on the page, confirmed on a page of its own (it cannot be undone), then taken.
  app.post('/embeds/:token/time-out', async (request: TokenRequest, reply) => {
    const page = await open(request, reply);
    if (!page) return reply;
    const { locale } = page.frame;
    const form = request.body ?? {};
    const duration = form.duration as TimeOutDuration | undefined;
    if (!duration || !TIME_OUT_DURATIONS.includes(duration)) {
      const errors = [{ field: 'time_out-duration', message: MESSAGES[locale].errors.chooseBreak }];
      return limitsPage(platform, page, request, reply, { status: 400, errors });
    }
    if (form.confirm !== 'yes') {
      const back = `${page.paths.page}#time_out`;
      const body = confirmTimeOut(page.frame, {
        action: page.paths.timeOut,
        back,
        duration,
        now: platform.clock.now(),
      });
      return send(reply, 200, page.frame, body);
    }
    const { timeOut, created } = await takeEmbedTimeOut(platform, request.params.token, request.id, duration);
    const until = formatTime(locale, new Date(timeOut.ends_at));
    const words = MESSAGES[locale].timeOut;
    return limitsPage(platform, page, request, reply, {
      notice: created ? words.started(until) : words.inForce(until),
      message: created
        ? {
            type: 'compliance-embed',
            event: 'timeout_started',
            embed_session_id: page.session.embed_session_id,
            time_out_id: timeOut.time_out_id,
            ends_at: timeOut.ends_at,
          }
        : undefined,
    });
  });
}
