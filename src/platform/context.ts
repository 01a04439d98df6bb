import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { ApiKeyCache } from './api-key-cache.js';
import type { Clock, TestClock } from './clock.js';
import type { Executor } from './db/database.js';
import type { KeyRole, Tenant } from './db/platform-tables.js';
import type { DB } from './db/schema.js';
import type { GroupCommits } from './group-commit.js';
import type { Metrics } from './metrics.js';
import type { ProcessLoad } from './process-load.js';
import type { Scheduler } from './scheduler.js';
import type { Secrets } from './secrets.js';
import type { Vendors } from './vendors.js';
import type { WebhookDispatcher } from './webhooks/dispatcher.js';

/** What every route, job and CLI path shares: built once in the composition root. */
export interface Platform {
  config: Config;
  db: Kysely<DB>;
  clock: Clock;
  /** Present only when COMPLIANCE_TEST_CLOCK=1. */
  testClock: TestClock | undefined;
  scheduler: Scheduler;
  dispatcher: WebhookDispatcher;
  log: FastifyBaseLogger;
  /** Present when REDIS_URL is set: shared rate-limit counters and caches across processes. */
  redis: Redis | undefined;
  /** Recently verified API keys; cleared by every back-office change to keys or tenants. */
  apiKeys: ApiKeyCache;
  /** The master key's uses: encryption of secrets at rest, keyed hashes of personal data. */
  secrets: Secrets;
  /** Queues the worker loop drains each pass; run() claims and processes one batch and returns its size. */
  pollers: Poller[];
  /** How busy this process is, shared with the others; what background work paces itself against. */
  load: ProcessLoad;
  metrics: Metrics;
  /** Each vendor-backed area's sandbox stub and, when this deployment has it, production implementation. */
  vendors: Vendors;
  /** The hot paths' group commits, one of each kind for this database. */
  groupCommits: GroupCommits;
}

export interface Poller {
  name: string;
  run: () => Promise<number>;
  /** The table run() deletes each taken row from: the worker loop vacuums it as rows go (see Workers). */
  queueTable?: string;
  /** After each batch, waits as long as the batch took before the next (one thread for the API and the work). */
  restsAsLongAsItWorks?: boolean;
  /** Work with a deadline: while the API is busy, the worker rests after a batch as pacing.ts says (ADR 0019). */
  pacing?: {
    /** The age by which every item must be done: its deadline less the safety margin. */
    deadlineMs: number;
    /** What waits: the count (a lower bound is fine) and the oldest item's time on the service clock. */
    backlog: () => Promise<{ waiting: number; oldestAt: Date | null }>;
  };
}

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

/** A member of the service's staff signed in to the console (docs/console.md); the audit log names them by staff_id. */
export interface StaffMember {
  staff_id: string;
  email: string;
  display_name: string;
  role: 'admin' | 'supervisor' | 'reviewer' | 'auditor' | 'regulator';
  /** The session's anti-forgery token: every state change through a session must carry it. */
  csrf_token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    tenantContext: TenantContext;
    /** Set on a back-office or console request made through a staff session; unset with the back-office token. */
    staffMember: StaffMember | undefined;
  }
}
