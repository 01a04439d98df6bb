import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Counter } from 'prom-client';
import type { Agent } from 'undici';
import type { Clock } from '../clock.js';
import type { Executor } from '../db/database.js';
import type { EventRow } from '../db/platform-tables.js';
import type { DB } from '../db/schema.js';
import type { Metrics } from '../metrics.js';
import type { Secrets } from '../secrets.js';
import { disableWhenFailingThroughout } from './auto-disable.js';
import { sendEvent, type DeliveryOutcome } from './delivery.js';
import { createDeliveryAgent, type DestinationPolicy } from './destination.js';
import {
  claimDueEvents,
  insertWebhookAttempt,
  requeueEvent,
  requeueEventsSince,
  selectDeliveryTenants,
  updateClaimedEvent,
} from './dispatcher.store.js';
import { afterAttempt } from './retry-schedule.js';
import { signingSecretsAt } from './signing-secrets.js';

export { DELIVERY_TIMEOUT_MS } from './delivery.js';
export { MAX_ATTEMPTS, RETRY_JITTER, RETRY_SCHEDULE_SECONDS, RETRY_SPAN_SECONDS } from './retry-schedule.js';

const CLAIM_SECONDS = 60;
const BATCH_SIZE = 25;
/** Due events looked at per claim, so that one tenant's backlog leaves room in the batch for others. */
const CANDIDATES = BATCH_SIZE * 4;
/** At most this many attempts to one tenant's destination are in flight in one process, so a slow one waits alone. */
export const MAX_IN_FLIGHT_PER_TENANT = 4;
/** Redelivery after an outage, and registering a destination, reach back this far (docs/webhooks.md). */
export const REDELIVERY_HORIZON_DAYS = 30;

/** What a recorded attempt came to, as compliance_webhook_deliveries_total counts it (each attempt once). */
const DELIVERY_OUTCOMES = ['delivered', 'failed', 'disabled'] as const;

/** Statuses that redelivery puts back in the queue: nothing delivered, and nothing in flight. */
export type RequeuedStatus = 'pending' | 'failed' | 'no_destination';

/**
 * Delivers outbox events to tenants' webhook URLs, signed per Standard Webhooks. Several dispatchers may run on one
 * database: events are claimed with FOR UPDATE SKIP LOCKED and a claim token, so no attempt is sent twice; a
 * dispatcher that dies mid-attempt leaves a claim that lapses and the attempt is made again (at-least-once).
 * Attempts are not awaited as a batch: each runs on its own, at most MAX_IN_FLIGHT_PER_TENANT per tenant, and a
 * claim takes only events of tenants with a free slot, so a slow destination holds up nobody else's events.
 */
export class WebhookDispatcher {
  private readonly agent: Agent;
  /** Attempts in flight per tenant, in this process. */
  private readonly inFlight = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  /** Attempts ended in this process so far: tells a drain that a slot came free while it was claiming. */
  private settled = 0;
  /** Claims run one at a time in a process, so the slots they count are the slots they fill. */
  private claiming: Promise<unknown> = Promise.resolve();
  /** Set by the worker loop: an attempt that ends claims the next due events at once, not at the next poll. */
  private refilling = false;
  private refillQueued = false;
  private readonly deliveries: Counter<'outcome'> | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly policy: DestinationPolicy,
    private readonly log: FastifyBaseLogger,
    private readonly secrets: Secrets,
    metrics?: Metrics,
  ) {
    this.agent = createDeliveryAgent(policy);
    if (metrics) {
      this.deliveries = metrics.counter(
        'compliance_webhook_deliveries_total',
        'Webhook delivery attempts recorded, by outcome: delivered, failed (a retry scheduled, or the last attempt), disabled (a last attempt that disabled its destination)',
        ['outcome'],
        DELIVERY_OUTCOMES.map((outcome) => ({ outcome })),
      );
    }
  }

  /** Between start and stop of the worker loop, each attempt that ends frees its slot for the next due event. */
  keepClaiming(on: boolean): void {
    this.refilling = on;
  }

  /**
   * Claims due events of tenants with free delivery slots and starts their attempts without waiting for them;
   * returns how many events it took (started, or parked for want of a destination). `idle()` waits for the
   * attempts in flight.
   */
  runOnce(): Promise<number> {
    const run = this.claiming.then(() => this.claimAndStart());
    this.claiming = run.catch(() => undefined);
    return run;
  }

  private async claimAndStart(): Promise<number> {
    const now = this.clock.now();
    const token = randomUUID();
    const busy = JSON.stringify([...this.inFlight].map(([tenant_id, n]) => ({ tenant_id, n })));
    // Due events oldest first, at most each tenant's free slots; those of a tenant with nowhere to go are parked.
    const rows = await claimDueEvents(this.db, {
      busy,
      now,
      token,
      claimedUntil: new Date(now.getTime() + CLAIM_SECONDS * 1000),
      maxInFlightPerTenant: MAX_IN_FLIGHT_PER_TENANT,
      candidates: CANDIDATES,
      batchSize: BATCH_SIZE,
    });
    const claimed = rows.filter((row) => !row.parked);
    if (claimed.length === 0) return rows.length;

    const tenantIds = [...new Set(claimed.map((e) => e.tenant_id))];
    const tenants = await selectDeliveryTenants(this.db, tenantIds);
    const byId = new Map(tenants.map((t) => [t.tenant_id, t]));

    // Oldest first, so that a tenant's events start in the order they were produced (or re-queued).
    claimed.sort(
      (a, b) =>
        +new Date(a.next_attempt_at!) - +new Date(b.next_attempt_at!) ||
        +new Date(a.created_at) - +new Date(b.created_at) ||
        (a.event_id < b.event_id ? -1 : 1),
    );
    for (const event of claimed) {
      const tenant = byId.get(event.tenant_id)!;
      this.inFlight.set(event.tenant_id, (this.inFlight.get(event.tenant_id) ?? 0) + 1);
      const attempt = (async () => {
        // Removed or disabled since the claim: the event waits for a destination as a parked one does.
        if (!tenant.webhook_url || tenant.webhook_disabled_at) return this.markNoDestination(event, token);
        const outcome = await sendEvent(this.agent, this.policy, event, tenant.webhook_url, () =>
          signingSecretsAt(this.secrets, tenant, now),
        );
        await this.record(event, token, outcome);
      })()
        .catch((error: unknown) => {
          // The claim lapses and the attempt is made again: nothing is lost.
          this.log.error({ err: error, event_id: event.event_id }, 'webhook attempt failed to run');
        })
        .finally(() => {
          const left = (this.inFlight.get(event.tenant_id) ?? 1) - 1;
          if (left > 0) this.inFlight.set(event.tenant_id, left);
          else this.inFlight.delete(event.tenant_id);
          this.running.delete(attempt);
          this.settled++;
          this.refill();
        });
      this.running.add(attempt);
    }
    return rows.length;
  }

  /** A slot came free: claim again soon (once for several attempts that end together). */
  private refill(): void {
    if (!this.refilling || this.refillQueued) return;
    this.refillQueued = true;
    setImmediate(() => {
      this.refillQueued = false;
      void (async () => {
        while (this.refilling && (await this.runOnce()) > 0) {
          /* claim while there is room and work */
        }
      })().catch((error: unknown) => this.log.error({ err: error }, 'webhook claim failed'));
    });
  }

  /**
   * Claims and runs attempts until nothing is due and nothing is in flight, or `stop()` says so (a worker tick, by
   * hand in tests and the CLI). A claim counts the free slots when it starts; an attempt that ends meanwhile means
   * another claim, or its tenant's next event would be left for the next poll.
   */
  async drain(stop: () => boolean = () => false): Promise<void> {
    for (;;) {
      const settledBefore = this.settled;
      const started = await this.runOnce();
      if (stop()) break;
      if (started > 0 || this.settled !== settledBefore) continue;
      if (this.running.size === 0) break;
      await this.anySettled();
    }
    await this.idle();
  }

  /** Waits until one attempt in flight ends (at once when none is). */
  private async anySettled(): Promise<void> {
    if (this.running.size > 0) await Promise.race(this.running);
  }

  /** Waits until no attempt is in flight. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private async record(event: EventRow, token: string, outcome: DeliveryOutcome): Promise<void> {
    const now = this.clock.now();
    const attemptNumber = event.attempt_count + 1;
    const delivered = outcome.error === null;
    const { status, nextAttemptAt } = afterAttempt(attemptNumber, delivered, now);
    const exhausted = status === 'failed';
    const recorded = await this.db.transaction().execute(async (tx) => {
      const updated = await updateClaimedEvent(tx, event, token, {
        attempt_count: attemptNumber,
        delivery_status: status,
        delivered_at: delivered ? now : null,
        next_attempt_at: nextAttemptAt,
        claim_token: null,
        claimed_until: null,
      });
      // A claim that lapsed and was taken over belongs to the other dispatcher now.
      if (!updated) return undefined;
      // Numbered across redeliveries, while attempt_count restarts the retry schedule.
      await insertWebhookAttempt(
        tx,
        {
          event_id: event.event_id,
          tenant_id: event.tenant_id,
          attempted_at: now,
          url: outcome.url,
          status_code: outcome.statusCode,
          latency_ms: outcome.latencyMs,
          error: outcome.error,
          outcome: delivered ? 'delivered' : exhausted ? 'failed' : 'retry_scheduled',
        },
        event.created_at,
      );
      const disabled =
        exhausted && (await disableWhenFailingThroughout(tx, this.log, event, outcome.url, now));
      return delivered ? 'delivered' : disabled ? 'disabled' : 'failed';
    });
    if (recorded) this.deliveries?.inc({ outcome: recorded });
    if (!delivered) {
      this.log.warn(
        {
          event_id: event.event_id,
          tenant_id: event.tenant_id,
          attempt: attemptNumber,
          error: outcome.error,
        },
        exhausted ? 'webhook delivery failed for good' : 'webhook delivery failed; retry scheduled',
      );
    }
  }

  private async markNoDestination(event: EventRow, token: string): Promise<void> {
    await updateClaimedEvent(this.db, event, token, {
      delivery_status: 'no_destination',
      next_attempt_at: null,
      claim_token: null,
      claimed_until: null,
    });
  }

  /** Queues an event for delivery again from its first attempt (back-office redelivery). */
  static redeliver(db: Kysely<DB>, eventId: string, now: Date): Promise<boolean> {
    return requeueEvent(db, eventId, now);
  }

  /**
   * Queues again, from a fresh schedule, every event of the tenant produced since `since` whose status is one of
   * `statuses`, except those in flight. They fall due now in the order they were produced: each is due one
   * microsecond after the one before, all at or before now, and claims take due events oldest first.
   */
  static requeueSince(
    db: Executor,
    input: { tenantId: string; since: Date; now: Date; statuses: readonly RequeuedStatus[] },
  ): Promise<number> {
    return requeueEventsSince(db, input);
  }

  async close(): Promise<void> {
    this.refilling = false;
    await this.idle();
    await this.agent.close();
  }
}
