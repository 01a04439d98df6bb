import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { audit } from '../../../platform/audit.js';
import type { Platform, TenantContext } from '../../../platform/context.js';
import type { Executor } from '../../../platform/db/database.js';
import type { Tenant } from '../../../platform/db/platform-tables.js';
import type { DB } from '../../../platform/db/schema.js';
import { sha256 } from '../../../platform/digest.js';
import { AppError } from '../../../platform/errors.js';
import { newId } from '../../../platform/ids.js';
import { withTransaction } from '../../../platform/service-context.js';
import { normaliseEmail, normalisePhone, recordContactsShown } from '../../exclusions/index.js';
import { keptCurrency } from '../../limits/index.js';
import { localeOf, SESSION_SECONDS, type EmbedKind } from '../embeds.rules.js';
import type { CreateEmbedSessionRequest, EmbedSession } from '../embeds.schemas.js';
import * as store from '../embeds.store.js';
import { findTenant } from '../../../platform/tenants.store.js';

/** The page's path for a token; the API's paths are /v1/embeds/{token}/…. */
export const embedPagePath = (token: string) => `/embeds/${token}`;

/** 256 random bits, base64url: 43 characters. Anything else is not one of ours and needs no look-up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const invalidRequest = (message: string) => new AppError('invalid_request', message);

/** The contact validators answer in the exclusions' code; a session's fields answer in the embeds' own. */
function contactField<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof AppError) throw invalidRequest(error.message);
    throw error;
  }
}

/**
 * Creates a session for one player of the tenant: the operator's server names the player and their contacts, the
 * page only ever holds the token. `baseUrl` is where players' browsers reach the service.
 */
export async function createEmbedSession(
  platform: Platform,
  ctx: TenantContext,
  input: CreateEmbedSessionRequest,
  baseUrl: string,
): Promise<EmbedSession> {
  const email =
    input.email === undefined || input.email.trim() === ''
      ? null
      : contactField(() => normaliseEmail(input.email!));
  const phone =
    input.phone === undefined || input.phone.trim() === ''
      ? null
      : contactField(() => normalisePhone(input.phone!));
  if (input.kind === 'self_exclusion' && email === null) {
    throw invalidRequest('email is required for a self_exclusion embed: the confirmation code is sent there');
  }
  const currency =
    input.kind === 'deposit_limits' ? (input.currency ?? (await keptCurrency(ctx, input.user_id))) : null;
  if (input.kind === 'deposit_limits' && currency === null) {
    throw invalidRequest(
      'currency is required: this player has no deposit limits or deposits yet to take it from',
    );
  }

  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const session = {
    embed_session_id: newId('embed_session'),
    token_hash: sha256(token),
    tenant_id: ctx.tenantId,
    kind: input.kind,
    user_id: input.user_id,
    email,
    phone,
    currency,
    locale: localeOf(input.locale),
    return_url: input.return_url ?? null,
    operator_notice: input.operator_notice ?? null,
    created_at: now,
    expires_at: new Date(now.getTime() + SESSION_SECONDS * 1000),
    completed_at: null,
    exclusion_id: null,
  };
  // Sent by the operator for this player: shown, as a check or a registration would show them.
  if (email !== null || phone !== null) await recordContactsShown(platform, ctx.tenantId, [{ email, phone }]);
  await withTransaction(ctx, async (tx, ctx) => {
    await store.insertSession(tx, session);
    await audit(tx, ctx, 'embed.session_created', {
      embed_session_id: session.embed_session_id,
      kind: session.kind,
      user_id: session.user_id,
    });
  });
  return {
    embed_session_id: session.embed_session_id,
    kind: session.kind,
    url: `${baseUrl}${embedPagePath(token)}`,
    expires_at: session.expires_at.toISOString(),
  };
}

/** A session as its token reaches it, with its tenant and the context its verbs act in. */
export interface OpenSession {
  session: store.EmbedSession;
  tenant: Tenant;
  ctx: TenantContext;
}

const invalidToken = () =>
  new AppError('invalid_embed_token', 'This embed link is not valid; the operator must create a new session');

/**
 * The session a token names, if it may still be used: an unknown or malformed token, or one of a suspended tenant,
 * is 401 invalid_embed_token; an expired one 401 embed_session_expired. `kind` refuses a session of the other kind.
 */
export async function openSession(
  platform: Platform,
  token: string,
  requestId: string,
  options: { kind?: EmbedKind; tx?: Transaction<DB> } = {},
): Promise<OpenSession> {
  const db = options.tx ?? platform.db;
  const found = await lookUp(db, token, options.tx !== undefined);
  if (!found || found.tenant.status !== 'active') throw invalidToken();
  const { session, tenant } = found;
  if (session.expires_at <= platform.clock.now()) {
    throw new AppError(
      'embed_session_expired',
      'This embed session has expired (sessions last 15 minutes); the operator must create a new one',
    );
  }
  if (options.kind && session.kind !== options.kind) {
    throw new AppError('embed_kind_mismatch', `This is a ${session.kind} embed session`);
  }
  const ctx: TenantContext = {
    tenant,
    tenantId: tenant.tenant_id,
    keyId: session.embed_session_id,
    keyPrefix: 'embed',
    role: 'standard',
    // The audit log and the exclusion's own audit row name the session the player acted through.
    actor: `embed:${session.embed_session_id}`,
    requestId,
    db,
    clock: platform.clock,
  };
  return { session, tenant, ctx };
}

/**
 * The session and tenant a token names, whatever their state, for a page that must say what is wrong in the
 * player's language and frame where its tenant allows; undefined for a token that names none.
 */
export const findSession = (platform: Platform, token: string) => lookUp(platform.db, token, false);

async function lookUp(
  db: Executor,
  token: string,
  forUpdate: boolean,
): Promise<{ session: store.EmbedSession; tenant: Tenant } | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const session = await store.findSessionByTokenHash(db, sha256(token), forUpdate);
  const tenant = session && (await findTenant(db, session.tenant_id));
  return session && tenant ? { session, tenant } : undefined;
}

/** Runs fn on the session in one transaction that holds it, so a session's codes change one request at a time. */
export function withSession<T>(
  platform: Platform,
  token: string,
  requestId: string,
  kind: EmbedKind,
  fn: (open: OpenSession, tx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  return platform.db.transaction().execute(async (tx) => {
    const open = await openSession(platform, token, requestId, { kind, tx });
    return fn(open, tx);
  });
}
