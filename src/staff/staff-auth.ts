import { timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Platform, StaffMember } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { staffContext } from '../platform/service-context.js';
import { resolveSession } from './service/sessions.js';
import { roleMay, type StaffAction } from './staff.rules.js';

/**
 * The console's session cookie on plain HTTP to this machine (a local sandbox), where a browser would refuse a Secure
 * one. Everywhere else it is HOST_SESSION_COOKIE.
 */
export const SESSION_COOKIE = 'console_session';
/** The session cookie anywhere but plain loopback HTTP: the prefix makes browsers keep it Secure and this host's only. */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** The header an API call through a staff session carries its anti-forgery token in (forms post `_csrf`). */
export const CSRF_HEADER = 'x-csrf-token';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Plain HTTP to a loopback name (127.0.0.1, ::1, localhost), on a service whose PUBLIC_URL is not https: the one
 * case the cookie goes without Secure. Over HTTPS (directly, or forwarded by a TRUST_PROXY proxy) or to any other
 * host it is Secure and __Host- prefixed.
 */
export function plainLoopback(platform: Platform, request: FastifyRequest): boolean {
  const hostname = request.host ? request.hostname.toLowerCase() : '';
  return (
    request.protocol === 'http' &&
    LOOPBACK_HOSTS.has(hostname) &&
    !platform.config.publicUrl.startsWith('https:')
  );
}

const cookieName = (platform: Platform, request: FastifyRequest) =>
  plainLoopback(platform, request) ? SESSION_COOKIE : HOST_SESSION_COOKIE;

/** Parses cookies in this scope only: the tenant API's hot paths never pay for it. */
export async function registerSessionCookies(scope: FastifyInstance): Promise<void> {
  await scope.register(cookie);
}

/**
 * HttpOnly, SameSite=Strict, path-wide; kept by the browser as long as the session can last (the service ends it
 * sooner when idle).
 */
export function setSessionCookie(
  platform: Platform,
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
): void {
  void reply.setCookie(cookieName(platform, request), sessionId, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: !plainLoopback(platform, request),
    maxAge: platform.config.staffSessionMaxHours * 3600,
  });
}

export function clearSessionCookie(platform: Platform, request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(cookieName(platform, request), {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: !plainLoopback(platform, request),
  });
}

/** The session id the request carries, in the cookie its transport allows (never the unprefixed one over HTTPS). */
export function sessionId(platform: Platform, request: FastifyRequest): string | undefined {
  const value = request.cookies[cookieName(platform, request)];
  return value && value.length <= 100 ? value : undefined;
}

/** The member of staff whose live session the request carries, or undefined. */
export async function sessionMember(
  platform: Platform,
  request: FastifyRequest,
): Promise<StaffMember | undefined> {
  const id = sessionId(platform, request);
  return id ? resolveSession(platform, staffContext(platform, request.id), id) : undefined;
}

const sameToken = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Every state change through a session carries the session's anti-forgery token, or is refused. */
export function requireCsrfToken(member: StaffMember, supplied: unknown): void {
  if (typeof supplied === 'string' && sameToken(supplied, member.csrf_token)) return;
  throw new AppError(
    'csrf_token_invalid',
    'This change was refused: it did not carry the session’s anti-forgery token. Reload the page and try again',
  );
}

/** Refuses what the member's role may not do (staff.rules.ts). */
export function requireAction(member: StaffMember, action: StaffAction | undefined): void {
  if (action && roleMay(member.role, action)) return;
  throw new AppError(
    'forbidden',
    action
      ? `The ${member.role} role may not ${action.replaceAll('_', ' ')}`
      : `No staff role may do this through a session`,
  );
}
