import fs from 'node:fs';
import path from 'node:path';
import formBody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Platform } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { registerSessionCookies } from '../staff/index.js';
import { PACKAGE_ROOT } from '../version.js';
import { registerConsoleGuard } from './console-auth.js';
import { html } from '../platform/html.js';
import { page } from './layout.js';
import { registerConsolePages } from './pages/index.js';

/**
 * No inline script or style, nothing from another origin, never framed: the console's pages carry their own CSP
 * (the tenant API's JSON responses need none). See docs/adr/0015-console-server-rendered-pages.md.
 */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const ASSETS: Record<string, string> = {
  'console.css': 'text/css; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
};

function loadAssets() {
  const dir = path.join(PACKAGE_ROOT, 'public', 'console');
  return new Map(
    Object.entries(ASSETS).map(([name, type]) => [
      name,
      { type, body: fs.readFileSync(path.join(dir, name)) },
    ]),
  );
}

/** Errors on a console page answer as a page, in plain words, with the status the API would give. */
function consoleErrorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const status = error instanceof AppError ? error.statusCode : (error.statusCode ?? 500);
  if (status >= 500) request.log.error({ err: error }, 'unhandled console error');
  const message =
    status >= 500
      ? `Something went wrong on our side. Quote ${request.id} to the service's engineers.`
      : (error as FastifyError).validation
        ? `The form was not complete or not valid: ${error.message}`
        : error.message;
  const title =
    status === 403
      ? 'Not allowed'
      : status === 404
        ? 'Not found'
        : status >= 500
          ? 'Error'
          : 'There is a problem';
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      page(
        { title, member: request.staffMember },
        html`<p class="error-text">${message}</p>
          <p><a href="${sameOriginReferer(request) ?? '/console'}">Go back</a></p>`,
      ).value,
    );
}

/** The page a form was posted from, when it is one of ours: where "Go back" leads. */
function sameOriginReferer(request: FastifyRequest): string | undefined {
  try {
    const from = new URL(request.headers.referer ?? '');
    return from.host === request.headers.host ? from.pathname + from.search : undefined;
  } catch {
    return undefined;
  }
}

/** The staff console under /console: server-rendered pages over the same service verbs as the back-office API. */
export function consoleRoutes(platform: Platform) {
  const assets = loadAssets();
  return async (app: FastifyInstance) => {
    await registerSessionCookies(app);
    await app.register(formBody, { bodyLimit: 2 * 1024 * 1024 });
    registerConsoleGuard(app, platform);
    app.setErrorHandler(consoleErrorHandler);
    app.addHook('onSend', async (request, reply, payload) => {
      void reply.header('content-security-policy', CONSOLE_CSP);
      void reply.header('x-content-type-options', 'nosniff');
      void reply.header('referrer-policy', 'same-origin');
      if (!request.url.startsWith('/console/assets/')) void reply.header('cache-control', 'no-store');
      return payload;
    });

    app.get<{ Params: { name: string } }>(
      '/console/assets/:name',
      { config: { staffAction: 'public' } },
      async (request, reply) => {
        const asset = assets.get(request.params.name);
        if (!asset) throw new AppError('not_found', 'No such asset');
        return reply.type(asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
      },
    );
    // Browsers ask every site for one: an empty answer, not a 404 in the console's error log.
    app.get('/favicon.ico', { config: { staffAction: 'public' } }, async (_request, reply) =>
      reply.code(204).send(),
    );

    await registerConsolePages(app, platform);
  };
}
