import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Platform, ServiceContext, StaffMember } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { requestStaffContext } from '../platform/service-context.js';
import { type StaffAction, requireAction, requireCsrfToken, sessionMember } from '../staff/index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What a console route does, by the role table (staff.rules.ts); 'public' for the sign-in and setup pages,
     * 'signed_in' for what every member may do whatever the role (sign out). A console route without it is refused
     * to everyone.
     */
    staffAction?: StaffAction | 'public' | 'signed_in';
  }
}

/** The member of staff behind a console request (the guard has run: only public routes have none). */
export function memberOf(request: FastifyRequest): StaffMember {
  if (!request.staffMember) throw new Error('memberOf on a console route without a session');
  return request.staffMember;
}

/** The verbs' context for a console request: the member of staff acting. */
export function consoleContext(platform: Platform, request: FastifyRequest): ServiceContext {
  return requestStaffContext(platform, request);
}

/** A browser names the page a form was posted from (Origin); one from another site is refused. */
function requireSameOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (host !== request.headers.host) {
    throw new AppError('csrf_token_invalid', 'This form was posted from another site and was refused');
  }
}

/**
 * Every console route but the public ones needs a live session (else the sign-in page), a role that may take the
 * route's action (else 403), and on a state change the session's anti-forgery token in the form's `_csrf`.
 */
export function registerConsoleGuard(scope: FastifyInstance, platform: Platform): void {
  scope.decorateRequest('staffMember', undefined);
  // Before the body is read: who may reach the route at all.
  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const action = request.routeOptions.config?.staffAction;
    if (action === 'public') return;
    const member = await sessionMember(platform, request);
    if (!member) {
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.redirect(`/console/login${next}`, 303);
    }
    request.staffMember = member;
    if (action !== 'signed_in') requireAction(member, action);
  });
  // Once the form is read, before it is validated or acted on: a post from another site is refused (the sign-in
  // and setup forms included, which have no session yet), and a session's post must carry its anti-forgery token.
  scope.addHook('preValidation', async (request: FastifyRequest) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    requireSameOrigin(request);
    const member = request.staffMember;
    if (member) requireCsrfToken(member, (request.body as { _csrf?: unknown } | undefined)?._csrf);
  });
}
