import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { ApiKeyCache } from './api-key-cache.js';
import type { Clock, TestClock } from './clock.js';
import type { DB } from './db/schema.js';
import type { GroupCommits } from './group-commit.js';
import type { Metrics } from './metrics.js';
import type { ProcessLoad } from './process-load.js';
import type { Scheduler } from './scheduler.js';
import type { Secrets } from './secrets.js';
import type { ServiceContext, TenantContext, TenantScopedContext } from './service-context.js';
import type { Vendors } from './vendors.js';
import type { WebhookDispatcher } from './webhooks/dispatcher.js';

export type { ServiceContext, TenantContext, TenantScopedContext };

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
  /** Set when the process is told to stop: readiness answers 503 from then on, while requests are still served. */
  draining: boolean;
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
