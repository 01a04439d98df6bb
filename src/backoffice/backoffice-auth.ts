import type { FastifyInstance } from 'fastify';
import { describeCredential, hashesEqual, issueBackofficeToken } from '../platform/api-keys.js';
import { recordSecurityEvent } from '../platform/audit.js';
import { countAuthFailure } from '../platform/auth-failures.js';
import type { Platform } from '../platform/context.js';
import type { Executor } from '../platform/db/database.js';
import { AppError } from '../platform/errors.js';
import { authFailureLimit } from '../platform/rate-limit.js';
import {
  anyMemberMay,
  backofficeRouteAction,
  tokenMay,
  CSRF_HEADER,
  registerSessionCookies,
  requireAction,
  requireCsrfToken,
  sessionMember,
} from '../staff/index.js';
import { sha256 } from '../platform/digest.js';
import { findSetting, insertSettingOnce } from './backoffice.store.js';

const SETTING = 'backoffice_token_hash';

/**
 * Resolves the back-office token's hash. A configured token wins; otherwise the stored hash; on the very first
 * start with neither, a token is generated and returned once (only its hash is kept).
 */
export async function ensureBackofficeToken(
  db: Executor,
  configured: string | undefined,
): Promise<{ tokenHash: string; generatedToken?: string }> {
  if (configured) return { tokenHash: sha256(configured) };
  const stored = await findSetting(db, SETTING);
  if (stored !== undefined) return { tokenHash: stored };
  const token = issueBackofficeToken();
  const inserted = await insertSettingOnce(db, SETTING, sha256(token));
  if (inserted !== undefined) return { tokenHash: inserted, generatedToken: token };
  // Another process generated it first.
  const winner = await findSetting(db, SETTING);
  if (winner === undefined) throw new Error(`The setting ${SETTING} vanished while it was being generated`);
  return { tokenHash: winner };
}

/**
 * Every back-office route takes the back-office token (automation: it passes every role check, but takes no
 * person-only action, staff.rules.ts) or a staff session
 * (the console's cookie): a session's request is allowed only what its role may do (staff.rules.ts), and a state
 * change through it must carry the session's anti-forgery token. A failure is written to the security log (its kind
 * and length, never its characters); past the per-address limit of failures it is answered 429 and written nowhere.
 */
export async function registerBackofficeAuth(
  scope: FastifyInstance,
  platform: Platform,
  tokenHash: string,
  prefix: string,
): Promise<void> {
  await registerSessionCookies(scope);
  scope.decorateRequest('staffMember', undefined);
  const limitFailures = authFailureLimit(scope, {
    redis: platform.redis,
    max: platform.config.authFailuresPerMinute,
    nameSpace: 'compliance:auth-failures:backoffice:',
    what: 'back-office logins',
  });
  scope.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    const route = request.routeOptions.url?.slice(prefix.length) ?? '';
    if (match && hashesEqual(sha256(match[1]!), tokenHash)) {
      if (tokenMay(request.method, route)) return;
      throw new AppError(
        'staff_session_required',
        'A member of staff signed in to the console must do this: the back-office token decides no case, approves no decision and manages no staff account',
      );
    }
    const member = header ? undefined : await sessionMember(platform, request);
    if (member) {
      request.staffMember = member;
      if (!anyMemberMay(request.method, route)) {
        requireAction(member, backofficeRouteAction(request.method, route));
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        requireCsrfToken(member, request.headers[CSRF_HEADER]);
      }
      return;
    }
    countAuthFailure(platform.metrics, 'backoffice', header ? 'invalid_token' : 'missing_token');
    await limitFailures(request, reply);
    await recordSecurityEvent(platform.db, {
      reason: header ? 'backoffice_invalid_token' : 'backoffice_missing_token',
      keyPrefix: header ? describeCredential(header) : null,
      requestId: request.id,
      remoteIp: request.ip,
      at: platform.clock.now(),
    });
    if (!match) {
      throw new AppError(
        'missing_credentials',
        'Send Authorization: Bearer <back-office token>, or sign in to the console',
      );
    }
    throw new AppError('invalid_credentials', 'The back-office token is not valid');
  });
}
