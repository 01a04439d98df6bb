import { timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Platform, StaffMember } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { staffContext } from '../platform/service-context.js';
import { resolveSession } from './service/sessions.js';
import { roleMay, SESSION_IDLE_SECONDS, type StaffAction } from './staff.rules.js';

/** The console's session cookie: HttpOnly, SameSite=Strict, Secure when served over TLS, path-wide. */
export const SESSION_COOKIE = 'console_session';
/** The header an API call through a staff session carries its anti-forgery token in (forms post `_csrf`). */
export const CSRF_HEADER = 'x-csrf-token';

/** Parses cookies in this scope only: the tenant API's hot paths never pay for it. */
export async function registerSessionCookies(scope: FastifyInstance): Promise<void> {
  await scope.register(cookie);
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, sessionId: string): void {
  void reply.setCookie(SESSION_COOKIE, sessionId, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: SESSION_IDLE_SECONDS,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

export function sessionId(request: FastifyRequest): string | undefined {
  const value = request.cookies[SESSION_COOKIE];
  return value && value.length <= 100 ? value : undefined;
}

/** The member of staff whose live session the request carries, or undefined. */
export async function sessionMember(
  platform: Platform,
  request: FastifyRequest,
): Promise<StaffMember | undefined> {
  const id = sessionId(request);
  return id ? resolveSession(staffContext(platform, request.id), id) : undefined;
}

const sameToken = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Every state change through a session carries the session's anti-forgery token, or is refused. */
export function requireCsrfToken(member: StaffMember, supplied: unknown): void {
  if (typeof supplied === 'string' && sameToken(supplied, member.csrf_token)) return;
  throw new AppError(
    'csrf_token_invalid',
    403,
    'This change was refused: it did not carry the session’s anti-forgery token. Reload the page and try again',
  );
}

/** Refuses what the member's role may not do (staff.rules.ts). */
export function requireAction(member: StaffMember, action: StaffAction | undefined): void {
  if (action && roleMay(member.role, action)) return;
  throw new AppError(
    'forbidden',
    403,
    action
      ? `The ${member.role} role may not ${action.replaceAll('_', ' ')}`
      : `No staff role may do this through a session`,
  );
}
