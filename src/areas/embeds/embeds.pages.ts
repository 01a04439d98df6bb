import fs from 'node:fs';
import path from 'node:path';
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { PACKAGE_ROOT } from '../../version.js';
import { tokenFailures } from './embeds.routes.js';
import { embedPagePath, findSession, openSession } from './service/sessions.js';
import { MESSAGES } from './locales/index.js';
import { exclusionPage, exclusionRoutes } from './pages/exclusion.js';
import { limitsPage, limitsRoutes } from './pages/limits.js';
import { explain, frameOf, NO_SESSION, problem, send, type Page, type TokenRequest } from './pages/page.js';

/**
 * The hosted embeds' pages (docs/embeds.md, ADR 0016): server-rendered, plain form posts that work without script,
 * over the same verbs as the JSON endpoints; framed only by the tenant's registered origins. The token in the path
 * is the credential: the pages send no referrer, so it never leaks, and are never cached.
 */

const ASSETS: Record<string, { file: string; type: string }> = {
  'embed.css': { file: 'embed/embed.css', type: 'text/css; charset=utf-8' },
  'embed-page.js': { file: 'embed/embed-page.js', type: 'text/javascript; charset=utf-8' },
};

export function embedPageRoutes(platform: Platform) {
  const read = (file: string) => fs.readFileSync(path.join(PACKAGE_ROOT, 'public', file));
  const assets = new Map(
    Object.entries(ASSETS).map(([name, { file, type }]) => [name, { type, body: read(file) }]),
  );
  const loader = read('embed/embed.js');

  return async (app: FastifyInstance) => {
    await app.register(formBody, { bodyLimit: 16 * 1024 });
    const tokenFailure = tokenFailures(app, platform);

    /** The usable session of a page request, or, sent, the page that says why there is none (undefined). */
    async function open(request: TokenRequest, reply: FastifyReply): Promise<Page | undefined> {
      const { token } = request.params;
      try {
        const { session, tenant, ctx } = await openSession(platform, token, request.id);
        const page = embedPagePath(token);
        const paths = {
          page,
          request: `${page}/request`,
          confirm: `${page}/confirm`,
          limits: `${page}/limits`,
          timeOut: `${page}/time-out`,
          realityCheck: `${page}/reality-check`,
          choose: `${page}?step=choose`,
        };
        return { session, tenant, ctx, frame: frameOf(session, tenant), paths };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // Counted and logged as the JSON endpoints count a bad token.
        if (error.code === 'invalid_embed_token') await tokenFailure(request, reply);
        // An expired or spent session still says so in its player's language, framed where its tenant allows.
        const found = await findSession(platform, token);
        const frame = found ? frameOf(found.session, found.tenant) : NO_SESSION;
        await send(reply, error.statusCode, frame, problem(frame, explain(error, frame).message));
        return undefined;
      }
    }

    // Anything a page did not turn into words of its own (a throttled address, a fault) is still a page.
    app.setErrorHandler(async (error, request, reply) => {
      const status = error instanceof AppError ? error.statusCode : 500;
      if (status >= 500) request.log.error({ err: error }, 'unhandled embed page error');
      return send(reply, status, NO_SESSION, problem(NO_SESSION, MESSAGES.en.errors.generic));
    });
    app.addHook('onSend', async (request, reply, payload) => {
      void reply.header('referrer-policy', 'no-referrer');
      void reply.header('x-content-type-options', 'nosniff');
      if (!request.url.startsWith('/embeds/assets/') && request.url !== '/embed.js') {
        void reply.header('cache-control', 'no-store');
      }
      return payload;
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
      if (!asset) throw new AppError('not_found', 'No such asset');
      return reply.type(asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
    });

    app.get('/embeds/:token', async (request: TokenRequest, reply) => {
      const page = await open(request, reply);
      if (!page) return reply;
      return page.session.kind === 'self_exclusion'
        ? exclusionPage(platform, page, request, reply)
        : limitsPage(platform, page, request, reply);
    });

    exclusionRoutes(app, platform, open);
    limitsRoutes(app, platform, open);
  };
}
