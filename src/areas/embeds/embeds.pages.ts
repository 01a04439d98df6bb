import fs from 'node:fs';
import path from 'node:path';
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Html } from '../../console/html.js';
import type { Platform, TenantContext } from '../../platform/context.js';
import type { Tenant } from '../../platform/db/platform-tables.js';
import { AppError } from '../../platform/errors.js';
import { currencyDecimals } from '../../platform/fx.js';
import { PACKAGE_ROOT } from '../../version.js';
import { DURATIONS, type Duration } from '../exclusions/exclusions.rules.js';
import { ownExclusion } from '../exclusions/exclusions.service.js';
import { LIMIT_TYPES, type LimitType } from '../limits/limits.rules.js';
import { tokenFailures } from './embeds.routes.js';
import { localeOf, type Locale } from './embeds.rules.js';
import * as embeds from './embeds.service.js';
import type { EmbedSession } from './embeds.tables.js';
import * as views from './embeds.views.js';
import { formatTime, MESSAGES } from './locales/index.js';

/**
 * The hosted embeds' pages (docs/embeds.md): server-rendered, plain form posts that work without script, over the
 * same verbs as the JSON endpoints. Framed only by the tenant's registered origins (CSP frame-ancestors; none: not
 * framed at all). The token in the path is the credential: the pages send no referrer, so it never leaks.
 */

const ASSETS: Record<string, { file: string; type: string }> = {
  'embed.css': { file: 'embed/embed.css', type: 'text/css; charset=utf-8' },
  'embed-page.js': { file: 'embed/embed-page.js', type: 'text/javascript; charset=utf-8' },
};

const csp = (origins: string[]) =>
  `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors ${
    origins.length ? origins.join(' ') : "'none'"
  }`;

type Form = Record<string, string | undefined>;
type TokenRequest = FastifyRequest<{ Params: { token: string; limit_id?: string }; Body: Form }>;

interface Page {
  session: EmbedSession;
  tenant: Tenant;
  ctx: TenantContext;
  frame: views.PageFrame;
  paths: { page: string; request: string; confirm: string; limits: string; choose: string };
}

/** `250`, `250.5`, `250,50`, `1 000,50` or `1.000,50` → minor units of the currency; undefined if not an amount. */
export function parseAmount(typed: string, currency: string): number | undefined {
  const digits = currencyDecimals(currency);
  const compact = typed.replace(/[\s\u00a0\u202f']/g, '');
  const separator = Math.max(compact.lastIndexOf(','), compact.lastIndexOf('.'));
  const decimals =
    separator >= 0 && compact.length - separator - 1 <= digits ? compact.slice(separator + 1) : '';
  const whole = (
    decimals || separator === compact.length - 1 ? compact.slice(0, separator) : compact
  ).replace(/[.,]/g, '');
  if (!/^\d{1,13}$/.test(whole) || !/^\d*$/.test(decimals)) return undefined;
  const cents = Number(whole) * 10 ** digits + Number(decimals.padEnd(digits, '0') || '0');
  return cents > 0 ? cents : undefined;
}

function frameOf(
  session: EmbedSession,
  tenant: Tenant,
  extra: Partial<views.PageFrame> = {},
): views.PageFrame {
  return {
    locale: localeOf(session.locale),
    operator: tenant.name,
    returnUrl: session.return_url,
    origins: tenant.embed_origins,
    ...extra,
  };
}

function send(reply: FastifyReply, status: number, origins: string[], body: Html) {
  return reply
    .code(status)
    .header('content-security-policy', csp(origins))
    .type('text/html; charset=utf-8')
    .send(body.value);
}

/** What an error says to the player, in their language, and the field it concerns. */
function explain(error: AppError, locale: Locale, operator: string): { field?: string; message: string } {
  const words = MESSAGES[locale].errors;
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
    embed_session_expired: { message: words.sessionExpired(operator) },
    invalid_embed_token: { message: words.sessionInvalid },
    embed_session_completed: { message: words.sessionCompleted },
    below_minimum: { field: 'amount', message: words.belowMinimum },
    invalid_amount: { field: 'amount', message: words.enterAmount },
    pending_change_exists: { field: 'limit_type', message: words.pendingChange },
    currency_mismatch: { message: words.currencyMismatch },
  };
  return messages[error.code] ?? { message: words.generic };
}

export function embedPageRoutes(platform: Platform) {
  let tokenFailure: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  const assets = new Map(
    Object.entries(ASSETS).map(([name, { file, type }]) => [
      name,
      { type, body: fs.readFileSync(path.join(PACKAGE_ROOT, 'public', file)) },
    ]),
  );
  const loader = fs.readFileSync(path.join(PACKAGE_ROOT, 'public', 'embed', 'embed.js'));

  /** The session of a page request, or the page that says why there is none (sent, and undefined returned). */
  async function open(request: TokenRequest, reply: FastifyReply): Promise<Page | undefined> {
    const { token } = request.params;
    try {
      const { session, tenant, ctx } = await embeds.openSession(platform, token, request.id);
      const page = embeds.embedPagePath(token);
      return {
        session,
        tenant,
        ctx,
        frame: frameOf(session, tenant),
        paths: {
          page,
          request: `${page}/request`,
          confirm: `${page}/confirm`,
          limits: `${page}/limits`,
          choose: `${page}?step=choose`,
        },
      };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const found = await embeds.findSession(platform, token);
      const frame = found
        ? frameOf(found.session, found.tenant)
        : { locale: 'en' as const, operator: '', returnUrl: null, origins: [] };
      const { message } = explain(error, frame.locale, frame.operator);
      // Counted and logged as the JSON endpoints count a bad token.
      if (error.code === 'invalid_embed_token') await tokenFailure(request, reply);
      await send(reply, error.statusCode, frame.origins, views.problem(frame, message));
      return undefined;
    }
  }

  async function exclusionPage(
    page: Page,
    request: TokenRequest,
    reply: FastifyReply,
    status = 200,
    errors?: views.PageFrame['errors'],
  ) {
    const { session, paths } = page;
    const frame = { ...page.frame, errors };
    if (session.completed_at && session.exclusion_id) {
      const exclusion = await ownExclusion(page.ctx, session.exclusion_id);
      return send(
        reply,
        status,
        frame.origins,
        views.excluded(
          {
            ...frame,
            message: {
              type: 'compliance-embed',
              event: 'exclusion_created',
              embed_session_id: session.embed_session_id,
              exclusion_id: session.exclusion_id,
            },
          },
          {
            expiresAt: exclusion?.expires_at ? new Date(exclusion.expires_at) : null,
            operatorNotice: session.operator_notice,
          },
        ),
      );
    }
    const live =
      (request.query as { step?: string }).step === 'choose'
        ? undefined
        : await embeds.liveCode(platform, session.embed_session_id);
    if (live) {
      return send(
        reply,
        status,
        frame.origins,
        views.enterCode(frame, {
          confirmAction: paths.confirm,
          resendAction: paths.request,
          back: paths.choose,
          email: session.email!,
          duration: live.duration,
          codeExpiresAt: live.code_expires_at,
          resendAt: live.resend_available_at,
          now: platform.clock.now(),
        }),
      );
    }
    return send(
      reply,
      status,
      frame.origins,
      views.chooseDuration(frame, { action: paths.request, operatorNotice: session.operator_notice }),
    );
  }

  async function limitsPage(
    page: Page,
    request: TokenRequest,
    reply: FastifyReply,
    extra: {
      status?: number;
      errors?: views.PageFrame['errors'];
      notice?: string;
      message?: Record<string, unknown>;
      typed?: Form;
    } = {},
  ) {
    const { session, paths } = page;
    const { currency, limits } = await embeds.embedLimits(platform, request.params.token, request.id);
    const frame = { ...page.frame, errors: extra.errors, notice: extra.notice, message: extra.message };
    return send(
      reply,
      extra.status ?? 200,
      frame.origins,
      views.depositLimits(frame, {
        action: paths.limits,
        cancelAction: (limitId) => `${paths.limits}/${limitId}/cancel`,
        currency,
        limits,
        operatorNotice: session.operator_notice,
        typed: extra.typed,
      }),
    );
  }

  return async (app: FastifyInstance) => {
    await app.register(formBody, { bodyLimit: 16 * 1024 });
    tokenFailure = tokenFailures(app, platform);
    // Anything a page did not turn into words of its own (a throttled address, a fault) is still a page.
    app.setErrorHandler(async (error, request, reply) => {
      const status = error instanceof AppError ? error.statusCode : 500;
      if (status >= 500) request.log.error({ err: error }, 'unhandled embed page error');
      const frame = { locale: 'en' as const, operator: '', returnUrl: null, origins: [] };
      return send(reply, status, [], views.problem(frame, MESSAGES.en.errors.generic));
    });
    app.addHook('onSend', async (_request, reply, payload) => {
      void reply.header('referrer-policy', 'no-referrer');
      void reply.header('x-content-type-options', 'nosniff');
      return payload;
    });
    app.addHook('onRequest', async (request, reply) => {
      if (request.url.startsWith('/embeds/assets/') || request.url === '/embed.js') return;
      void reply.header('cache-control', 'no-store');
    });

    app.get('/embed.js', async (_request, reply) =>
      reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        // Loaded by operators' pages on other origins.
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(loader),
    );

    app.get<{ Params: { name: string } }>('/embeds/assets/:name', async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) throw new AppError('not_found', 404, 'No such asset');
      return reply.type(asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
    });

    app.get('/embeds/:token', async (request: TokenRequest, reply) => {
      const page = await open(request, reply);
      if (!page) return reply;
      return page.session.kind === 'self_exclusion'
        ? exclusionPage(page, request, reply)
        : limitsPage(page, request, reply);
    });

    app.post('/embeds/:token/request', async (request: TokenRequest, reply) => {
      const page = await open(request, reply);
      if (!page) return reply;
      const words = MESSAGES[page.frame.locale].errors;
      const form = request.body ?? {};
      const duration = form.duration as Duration | undefined;
      if (!duration || !DURATIONS.includes(duration)) {
        return exclusionPage(page, request, reply, 400, [
          { field: 'duration', message: words.chooseDuration },
        ]);
      }
      if (duration === 'duration_permanent' && form.confirm_permanent !== 'yes') {
        // The second, explicit confirmation a permanent exclusion asks for: its own page.
        const fromConfirmation = form.step === 'permanent';
        const errors = fromConfirmation
          ? [{ field: 'confirm_permanent', message: words.confirmPermanent }]
          : undefined;
        return send(
          reply,
          fromConfirmation ? 400 : 200,
          page.frame.origins,
          views.confirmPermanent(
            { ...page.frame, errors },
            { action: page.paths.request, back: page.paths.choose },
          ),
        );
      }
      try {
        await embeds.requestCode(platform, request.params.token, request.id, duration);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return exclusionPage(page, request, reply, error.statusCode, [
          explain(error, page.frame.locale, page.frame.operator),
        ]);
      }
      return reply.redirect(page.paths.page, 303);
    });

    app.post('/embeds/:token/confirm', async (request: TokenRequest, reply) => {
      const page = await open(request, reply);
      if (!page) return reply;
      const code = (request.body?.code ?? '').replace(/\s/g, '');
      if (!/^\d{6}$/.test(code)) {
        const message = MESSAGES[page.frame.locale].errors.enterCode;
        return exclusionPage(page, request, reply, 400, [{ field: 'code', message }]);
      }
      try {
        await embeds.confirmCode(platform, request.params.token, request.id, code);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const fresh = (await open(request, reply))!;
        return exclusionPage(fresh, request, reply, error.statusCode, [
          explain(error, page.frame.locale, page.frame.operator),
        ]);
      }
      return reply.redirect(page.paths.page, 303);
    });

    app.post('/embeds/:token/limits', async (request: TokenRequest, reply) => {
      const page = await open(request, reply);
      if (!page) return reply;
      const words = MESSAGES[page.frame.locale];
      const form = request.body ?? {};
      const limitType = form.limit_type as LimitType | undefined;
      const amount = parseAmount(form.amount ?? '', page.session.currency!);
      const errors = [
        ...(limitType && LIMIT_TYPES.includes(limitType)
          ? []
          : [{ field: 'limit_type', message: words.errors.chooseType }]),
        ...(amount === undefined ? [{ field: 'amount', message: words.errors.enterAmount }] : []),
      ];
      if (errors.length) return limitsPage(page, request, reply, { status: 400, errors, typed: form });
      try {
        const { limit } = await embeds.setEmbedLimit(platform, request.params.token, request.id, {
          limit_type: limitType!,
          amount_cents: amount!,
        });
        const money = (cents: number) => views.money(page.frame.locale, cents, limit.currency);
        const period = words.limits.types[limit.limit_type];
        const notice =
          limit.status === 'pending'
            ? words.limits.increaseWaits(
                period,
                money(limit.amount_cents),
                formatTime(page.frame.locale, new Date(limit.effective_from)),
                money(limit.current_limit_cents ?? 0),
              )
            : words.limits.setNow(period, money(limit.amount_cents));
        return limitsPage(page, request, reply, {
          notice,
          message: {
            type: 'compliance-embed',
            event: 'limit_changed',
            embed_session_id: page.session.embed_session_id,
            limit_type: limit.limit_type,
            status: limit.status,
          },
        });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const explained = explain(error, page.frame.locale, page.frame.operator);
        return limitsPage(page, request, reply, {
          status: error.statusCode,
          errors: [explained],
          typed: form,
        });
      }
    });

    app.post('/embeds/:token/limits/:limit_id/cancel', async (request: TokenRequest, reply) => {
      const page = await open(request, reply);
      if (!page) return reply;
      const words = MESSAGES[page.frame.locale];
      try {
        const limit = await embeds.cancelEmbedLimit(
          platform,
          request.params.token,
          request.id,
          request.params.limit_id!,
        );
        const notice = words.limits.cancelled(
          words.limits.types[limit.limit_type],
          views.money(page.frame.locale, limit.current_limit_cents ?? 0, limit.currency),
        );
        return limitsPage(page, request, reply, {
          notice,
          message: {
            type: 'compliance-embed',
            event: 'limit_changed',
            embed_session_id: page.session.embed_session_id,
            limit_type: limit.limit_type,
            status: limit.status,
          },
        });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return limitsPage(page, request, reply, {
          status: error.statusCode,
          errors: [explain(error, page.frame.locale, page.frame.operator)],
        });
      }
    });
  };
}
