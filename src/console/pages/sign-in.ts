import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { addressLimit } from '../../platform/rate-limit.js';
import { staffContext } from '../../platform/service-context.js';
import {
  completeSetup,
  openSetupLink,
  signIn,
  signOut,
  MIN_PASSWORD_LENGTH,
  clearSessionCookie,
  sessionId,
  setSessionCookie,
  newTotpSecret,
  totpUri,
} from '../../staff/index.js';
import { memberOf } from '../console-auth.js';
import { html, type Html } from '../../platform/html.js';
import { page } from '../layout.js';
import { sendPage } from './respond.js';

/** Only a path inside the console: "next" must never send a member of staff to another site. */
const safeNext = (next: unknown) =>
  typeof next === 'string' && /^\/console(\/[^/\\]|$|\?)/.test(next) ? next : '/console';

/** The authenticator code's field: six digits, a space allowed as the apps show it. */
const CODE_FIELD = html`<label for="code">Authentication code</label>
  <input
    id="code"
    name="code"
    inputmode="numeric"
    autocomplete="one-time-code"
    pattern="[0-9 ]{6,7}"
    required
  />`;

function signInForm(options: { next: string; email?: string; error?: string }): Html {
  return page(
    { title: 'Sign in', errors: options.error ? [{ field: 'email', message: options.error }] : [] },
    html`<form method="post" action="/console/login" class="stack narrow">
      <input type="hidden" name="next" value="${options.next}" />
      <label for="email">Email</label>
      <input
        id="email"
        name="email"
        type="email"
        autocomplete="username"
        required
        value="${options.email ?? ''}"
      />
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required />
      ${CODE_FIELD}
      <button type="submit">Sign in</button>
    </form>`,
  );
}

function setupForm(options: {
  token: string;
  email: string;
  secret: string;
  error?: string;
  field?: string;
}): Html {
  return page(
    {
      title: 'Set up your account',
      errors: options.error ? [{ field: options.field ?? 'password', message: options.error }] : [],
    },
    html`<p>Signing in as <strong>${options.email}</strong>. This link works once.</p>
      <form method="post" action="/console/setup/${options.token}" class="stack narrow">
        <label for="password">Password</label>
        <p class="hint" id="password-hint">At least ${MIN_PASSWORD_LENGTH} characters.</p>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          minlength="${MIN_PASSWORD_LENGTH}"
          aria-describedby="password-hint"
          required
        />
        <h2>Authenticator</h2>
        <p>
          Add this key to your authenticator app (time-based, 6 digits, 30 seconds), then enter the code it
          shows.
        </p>
        <p><code class="secret" id="totp-secret">${options.secret.replace(/(.{4})/g, '$1 ').trim()}</code></p>
        <p class="hint">
          <a href="${totpUri(options.secret, options.email)}">Open in an authenticator app on this device</a>
        </p>
        <input type="hidden" name="totp_secret" value="${options.secret}" />
        ${CODE_FIELD}
        <button type="submit">Save and continue</button>
      </form>`,
  );
}

type Form = Record<string, string | undefined>;

/** Sign-in, sign-out and the one-time setup link: the console's only pages without a session. */
export function signInPages(app: FastifyInstance, platform: Platform): void {
  // Every attempt counts, not only failures: each may cost a password hash, so the address is checked first.
  const limitAttempts = addressLimit(app, {
    redis: platform.redis,
    max: platform.config.authFailuresPerMinute,
    nameSpace: 'compliance:sign-in-attempts:console:',
    refusal: (max, retryAfter) =>
      `More than ${max} sign-in attempts a minute from this address: try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`,
  });
  const publicRoute = { config: { staffAction: 'public' as const } };

  app.get<{ Querystring: { next?: string } }>('/console/login', publicRoute, async (request, reply) =>
    sendPage(reply, signInForm({ next: safeNext(request.query.next) })),
  );

  app.post<{ Body: Form }>(
    '/console/login',
    publicRoute,
    async (request: FastifyRequest<{ Body: Form }>, reply) => {
      const body = request.body ?? {};
      const next = safeNext(body.next);
      try {
        await limitAttempts(request);
        const { sessionId: id } = await signIn(platform, staffContext(platform, request.id), {
          email: body.email ?? '',
          password: body.password ?? '',
          code: body.code ?? '',
          remoteIp: request.ip,
        });
        // A session id the browser held before signing in is never promoted: the old one ends, a new one is set.
        const previous = sessionId(platform, request);
        if (previous) await signOut(staffContext(platform, request.id), previous);
        setSessionCookie(platform, request, reply, id);
        return reply.redirect(next, 303);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // A refused sign-in, a throttled one, or an authenticator key the service cannot open (a new setup link mends it).
        if (!['sign_in_failed', 'rate_limited', 'stored_secret_unreadable'].includes(error.code)) throw error;
        if (error.retryAfterSeconds) void reply.header('retry-after', error.retryAfterSeconds);
        const form = signInForm({ next, email: body.email, error: error.message });
        return sendPage(reply, form, error.statusCode);
      }
    },
  );

  // Every role signs out, the regulator's included.
  app.post('/console/logout', { config: { staffAction: 'signed_in' } }, async (request, reply) => {
    memberOf(request);
    const id = sessionId(platform, request);
    if (id) await signOut(staffContext(platform, request.id), id);
    clearSessionCookie(platform, request, reply);
    return reply.redirect('/console/login', 303);
  });

  app.get<{ Params: { token: string } }>('/console/setup/:token', publicRoute, async (request, reply) => {
    const account = await openSetupLink(staffContext(platform, request.id), request.params.token);
    return sendPage(
      reply,
      setupForm({ token: request.params.token, email: account.email, secret: newTotpSecret() }),
    );
  });

  app.post<{ Params: { token: string }; Body: Form }>(
    '/console/setup/:token',
    publicRoute,
    async (request, reply) => {
      const { token } = request.params;
      const body = request.body ?? {};
      const ctx = staffContext(platform, request.id);
      const account = await openSetupLink(ctx, token);
      const secret = /^[A-Z2-7]{32}$/.test(body.totp_secret ?? '') ? body.totp_secret! : newTotpSecret();
      try {
        await completeSetup(ctx, platform.secrets, {
          token,
          password: body.password ?? '',
          totp_secret: secret,
          code: body.code ?? '',
        });
      } catch (error) {
        if (!(error instanceof AppError) || error.statusCode !== 400) throw error;
        const field = error.message.includes('password') ? 'password' : 'code';
        return sendPage(
          reply,
          setupForm({ token, email: account.email, secret, error: error.message, field }),
          400,
        );
      }
      return sendPage(
        reply,
        page(
          { title: 'Your account is ready' },
          html`<p>Your password and authenticator are set.</p>
            <p><a href="/console/login">Sign in</a></p>`,
        ),
      );
    },
  );
}
