import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { request, type Agent } from 'undici';
import type { Clock } from '../clock.js';
import type { EventRow } from '../db/platform-tables.js';
import type { DB } from '../db/schema.js';
import type { Secrets } from '../secrets.js';
import { createDeliveryAgent, isDeliverableHost, type DestinationPolicy } from './destination.js';
import { signingSecretsAt } from './signing-secrets.js';

/** Wait before each retry: attempt 1 fails → 5 s → attempt 2 … attempt 8 fails → failed. Documented in docs/webhooks.md. */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
/** Retries wait up to this fraction longer than scheduled, never shorter, so tenants' endpoints are not hit in step. */
export const RETRY_JITTER = 0.1;
export const DELIVERY_TIMEOUT_MS = 15_000;
const CLAIM_SECONDS = 60;
const BATCH_SIZE = 25;

interface Outcome {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  url: string;
}

/**
 * Delivers outbox events to tenants' webhook URLs, signed per Standard Webhooks. Several dispatchers may run on one
 * database: a batch is claimed with FOR UPDATE SKIP LOCKED and a claim token, so no attempt is sent twice; a
 * dispatcher that dies mid-attempt leaves a claim that lapses and the attempt is made again (at-least-once).
 */
export class WebhookDispatcher {
  private readonly agent: Agent;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly policy: DestinationPolicy,
    private readonly log: FastifyBaseLogger,
    private readonly secrets: Secrets,
  ) {
    this.agent = createDeliveryAgent(policy);
  }

  /** Claims and delivers one batch of due events; returns how many were attempted. */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const token = randomUUID();
    const claimed = await this.db
      .updateTable('events')
      .set({ claim_token: token, claimed_until: new Date(now.getTime() + CLAIM_SECONDS * 1000) })
      .where('event_id', 'in', (eb) =>
        eb
          .selectFrom('events')
          .select('event_id')
          .where('delivery_status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<=', now)]))
          .orderBy('next_attempt_at')
          .limit(BATCH_SIZE)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .execute();
    if (claimed.length === 0) return 0;

    const tenantIds = [...new Set(claimed.map((e) => e.tenant_id))];
    const tenants = await this.db
      .selectFrom('tenants')
      .select([
        'tenant_id',
        'webhook_url',
        'signing_secret',
        'previous_signing_secret',
        'previous_signing_secret_expires_at',
      ])
      .where('tenant_id', 'in', tenantIds)
      .execute();
    const byId = new Map(tenants.map((t) => [t.tenant_id, t]));

    await Promise.all(
      claimed.map(async (event) => {
        const tenant = byId.get(event.tenant_id)!;
        if (!tenant.webhook_url) return this.markNoDestination(event, token);
        const outcome = await this.send(event, tenant.webhook_url, () =>
          signingSecretsAt(this.secrets, tenant, now),
        );
        await this.record(event, token, outcome);
      }),
    );
    return claimed.length;
  }

  private async send(event: EventRow, url: string, signingSecrets: () => string[]): Promise<Outcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { statusCode: null, error: 'invalid URL', latencyMs: 0, url };
    }
    if (!isDeliverableHost(target, this.policy)) {
      return { statusCode: null, error: 'destination address not allowed', latencyMs: 0, url };
    }
    // The transport timestamp is wall-clock time (receivers check it for replay), not the service clock.
    const sentAt = new Date();
    let signature: string;
    try {
      // During a rotation's overlap, one signature per secret, space-separated (Standard Webhooks).
      signature = signingSecrets()
        .map((secret) => new Webhook(secret).sign(event.event_id, sentAt, event.payload))
        .join(' ');
    } catch {
      // Never the cause's text: it is about the secret. A wrong COMPLIANCE_SECRETS_KEY is refused at start.
      return { statusCode: null, error: 'signing secret unreadable', latencyMs: 0, url };
    }
    try {
      const response = await request(target, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'compliance-service-webhooks/1',
          'webhook-id': event.event_id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: event.payload,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        maxRedirections: 0,
      } as Parameters<typeof request>[1]);
      await response.body.dump();
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        statusCode: response.statusCode,
        error: ok ? null : `HTTP ${response.statusCode}`,
        latencyMs: elapsed(),
        url,
      };
    } catch (error) {
      const message =
        error instanceof Error ? (error.name === 'TimeoutError' ? 'timed out' : error.message) : 'error';
      return { statusCode: null, error: message.slice(0, 500), latencyMs: elapsed(), url };
    }
  }

  private async record(event: EventRow, token: string, outcome: Outcome): Promise<void> {
    const now = this.clock.now();
    const attemptNumber = event.attempt_count + 1;
    const delivered = outcome.error === null;
    const exhausted = !delivered && attemptNumber >= MAX_ATTEMPTS;
    const delaySeconds = RETRY_SCHEDULE_SECONDS[attemptNumber - 1] ?? 0;
    const nextAttemptAt =
      delivered || exhausted
        ? null
        : new Date(now.getTime() + delaySeconds * 1000 * (1 + Math.random() * RETRY_JITTER));
    await this.db.transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable('events')
        .set({
          attempt_count: attemptNumber,
          delivery_status: delivered ? 'delivered' : exhausted ? 'failed' : 'pending',
          delivered_at: delivered ? now : null,
          next_attempt_at: nextAttemptAt,
          claim_token: null,
          claimed_until: null,
        })
        .where('event_id', '=', event.event_id)
        .where('claim_token', '=', token)
        .executeTakeFirst();
      // A claim that lapsed and was taken over belongs to the other dispatcher now.
      if (Number(updated.numUpdatedRows) === 0) return;
      await tx
        .insertInto('webhook_attempts')
        .values({
          event_id: event.event_id,
          tenant_id: event.tenant_id,
          // Numbered across redeliveries, while attempt_count restarts the retry schedule.
          attempt_number: sql<number>`(select coalesce(max(attempt_number), 0) + 1 from webhook_attempts where event_id = ${event.event_id})`,
          attempted_at: now,
          url: outcome.url,
          status_code: outcome.statusCode,
          latency_ms: outcome.latencyMs,
          error: outcome.error,
          outcome: delivered ? 'delivered' : exhausted ? 'failed' : 'retry_scheduled',
        })
        .execute();
    });
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
    await this.db
      .updateTable('events')
      .set({
        delivery_status: 'no_destination',
        next_attempt_at: null,
        claim_token: null,
        claimed_until: null,
      })
      .where('event_id', '=', event.event_id)
      .where('claim_token', '=', token)
      .execute();
  }

  /** Queues an event for delivery again from its first attempt (back-office redelivery). */
  static async redeliver(db: Kysely<DB>, eventId: string, now: Date): Promise<boolean> {
    const result = await db
      .updateTable('events')
      .set({
        delivery_status: 'pending',
        attempt_count: sql<number>`0`,
        next_attempt_at: now,
        claim_token: null,
        claimed_until: null,
        delivered_at: null,
      })
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
