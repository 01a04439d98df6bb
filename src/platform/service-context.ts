import type { Transaction } from 'kysely';
import type { Clock } from './clock.js';
import type { Executor } from './db/database.js';
import type { KeyRole, Tenant } from './db/platform-tables.js';
import type { DB } from './db/schema.js';

/**
 * What every service verb takes: who acts, for which tenant, under which request, and where its writes go.
 * `db` is the database, or an outer verb's transaction: a verb given one commits with its caller
 * (see withTransaction in service-context.ts).
 */
export interface ServiceContext {
  /** An API key's prefix, a staff id, 'backoffice' (the token), or 'service' for the service's own jobs. */
  actor: string;
  /**
   * The member of staff signed in, when a person acts (a console or back-office session): set only from a session,
   * never from a request's body. Four-eyes steps and case decisions require it.
   */
  staffId?: string;
  /** The tenant acted for; null for a staff action on what belongs to no tenant. */
  tenantId: string | null;
  requestId: string | null;
  db: Executor;
  clock: Clock;
}

/** A context acting on one tenant's resources: a tenant's key, or a member of staff reading for a tenant. */
export type TenantScopedContext = ServiceContext & { tenantId: string };

/** Who is calling: resolved from the bearer key before any tenant route runs. */
export interface TenantContext extends ServiceContext {
  tenant: Tenant;
  tenantId: string;
  keyId: string;
  keyPrefix: string;
  role: KeyRole;
  requestId: string;
}

/** What a context is built from: the platform, or a transaction and a clock. */
interface DatabaseAndClock {
  db: Executor;
  clock: Clock;
}

/**
 * Runs fn in the context's transaction, or opens one: a verb called with an outer verb's context commits with
 * it, so two verbs can change state together or not at all. fn gets the context bound to the transaction, to
 * pass on to the verbs it calls.
 */
export function withTransaction<C extends ServiceContext, T>(
  ctx: C,
  fn: (tx: Transaction<DB>, ctx: C) => Promise<T>,
): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx.db as Transaction<DB>, ctx);
  return ctx.db.transaction().execute((tx) => fn(tx, { ...ctx, db: tx }));
}

/** The same actor and request, acting on one tenant's resource (a staff decision on a tenant's case, say). */
export function forTenant<C extends ServiceContext>(ctx: C, tenantId: string | null): C {
  return { ...ctx, tenantId };
}

/** A context for the service's staff surfaces before anyone is known (sign-in, setup): actor 'backoffice'. */
export function staffContext(platform: DatabaseAndClock, requestId: string | null): ServiceContext {
  return { actor: 'backoffice', tenantId: null, requestId, db: platform.db, clock: platform.clock };
}

/**
 * The context of a back-office or console request: its staff session's member, who is then the actor and the
 * person, or with the back-office token (kept for automation) the actor 'backoffice' and no person. A name in a
 * request's body is never an identity.
 */
export function requestStaffContext(
  platform: DatabaseAndClock,
  request: { id: string; staffMember?: { staff_id: string } | undefined },
): ServiceContext {
  const staffId = request.staffMember?.staff_id;
  const ctx = staffContext(platform, request.id);
  return staffId ? { ...ctx, actor: staffId, staffId } : ctx;
}

/** A context for what the service does on its own (jobs, deliveries): no request, actor 'service' (as the audit log names it). */
export function systemContext(platform: DatabaseAndClock, tenantId: string | null = null): ServiceContext {
  return { actor: 'service', tenantId, requestId: null, db: platform.db, clock: platform.clock };
}
