import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  describeCredential,
  hashApiKey,
  hashesEqual,
  isWellFormedApiKey,
  keyEnvironment,
} from './api-keys.js';
import { audit, recordSecurityEvent } from './audit.js';
import { authFailuresCounter, type AuthFailureReason } from './auth-failures.js';
import { findKeyWithTenant } from './auth.store.js';
import type { Platform } from './context.js';
import { AppError } from './errors.js';
import { authFailureLimit } from './rate-limit.js';

type FailureReason = AuthFailureReason<'api'>;

/** Bearer-key authentication for the tenant API: every route in the scope it is registered in. */
export function registerTenantAuth(scope: FastifyInstance, platform: Platform): void {
  scope.decorateRequest('tenantContext', null as never);
  // Before anything is written for a failure: past the limit, an address's bad keys are answered 429 unrecorded.
  const limitFailures = authFailureLimit(scope, {
    redis: platform.redis,
    max: platform.config.authFailuresPerMinute,
    nameSpace: 'compliance:auth-failures:tenant:',
    what: 'authentications',
  });
  const failures = authFailuresCounter(platform.metrics);

  const fail = async (
    request: FastifyRequest,
    reply: FastifyReply,
    reason: FailureReason,
    header: string | null,
    tenantId?: string,
  ) => {
    failures.inc({ surface: 'api', reason });
    await limitFailures(request, reply);
    const keyPrefix = header ? describeCredential(header) : null;
    if (tenantId) {
      const { db, clock } = platform;
      const caller = { actor: keyPrefix ?? 'anonymous', tenantId, requestId: request.id, db, clock };
      await audit(db, caller, 'auth.failed', { reason, key_prefix: keyPrefix });
    } else {
      await recordSecurityEvent(platform.db, {
        reason,
        keyPrefix,
        requestId: request.id,
        remoteIp: request.ip,
        at: platform.clock.now(),
      });
    }
    if (reason === 'missing_header') {
      throw new AppError('missing_credentials', 'Send an Authorization: Bearer <API key> header');
    }
    throw new AppError('invalid_credentials', 'The API key is malformed, unknown or no longer valid');
  };

  scope.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    if (!header) return fail(request, reply, 'missing_header', null);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const presented = match?.[1] ?? header;
    if (!match || !isWellFormedApiKey(presented)) return fail(request, reply, 'malformed', header);

    const keyHash = hashApiKey(presented);
    const cached = platform.apiKeys.get(keyHash);
    if (cached) {
      request.tenantContext = { ...cached, requestId: request.id };
      return;
    }
    const row = await findKeyWithTenant(platform.db, keyHash);
    if (!row || !hashesEqual(row.key_hash, keyHash)) return fail(request, reply, 'unknown_key', header);
    if (row.revoked_at) return fail(request, reply, 'revoked', header, row.tenant_id);
    if (row.status !== 'active') return fail(request, reply, 'tenant_suspended', header, row.tenant_id);
    if (keyEnvironment(presented) !== row.environment) {
      return fail(request, reply, 'environment_mismatch', header, row.tenant_id);
    }

    const { key_id, key_prefix, key_hash: _hash, role, revoked_at: _revoked, ...tenant } = row;
    const verified = {
      tenant,
      tenantId: tenant.tenant_id,
      keyId: key_id,
      keyPrefix: key_prefix,
      role,
      actor: key_prefix,
      db: platform.db,
      clock: platform.clock,
    };
    platform.apiKeys.set(keyHash, verified);
    // No child logger per request (it costs more than the look-up): log lines name the tenant themselves.
    request.tenantContext = { ...verified, requestId: request.id };
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An admin-only operation (set by adminOnly): the route catalogue reads it, so no list of them is kept. */
    adminOnly?: boolean;
  }
}

/** preValidation of admin-only operations (the spec's elevated privileges). */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (request.tenantContext.role !== 'admin') {
    throw new AppError('forbidden', 'This operation needs an admin API key');
  }
}

/**
 * The route options of an admin-only operation, given the route's config: the role is checked before body
 * validation, so a standard key learns only that it may not do this (403), never 400 details; and the route is
 * marked adminOnly, for the route catalogue.
 */
export function adminOnly<C extends FastifyContextConfig>(config: C) {
  return { config: { ...config, adminOnly: true }, preValidation: requireAdmin };
}
export { listTenantKeys } from './auth.store.js';
