import type { Platform, TenantContext } from '../../../platform/context.js';
import { AppError, isRefusedValue } from '../../../platform/errors.js';
import { databaseGroupCommit } from '../../../platform/group-commit.js';
import { requestFingerprint } from '../../../platform/idempotency.js';
import { newId } from '../../../platform/ids.js';
import { minorScale, requireFxRate } from '../../../platform/fx.js';
import type { AmlEventRequest } from '../aml.schemas.js';
import { failedDepositAccepted } from './failed-deposit-accepted.js';
import { findEventByTransaction, settlePendingEvent } from '../aml.store.js';
import { insertEvents, type NewEvent } from '../statements/aml-event.js';
import type { AmlEventType } from '../aml.tables.js';

/** Money movements need an amount; a login or an account update may carry 0. */
const AMOUNT_REQUIRED: readonly AmlEventType[] = ['deposit', 'withdrawal', 'wager', 'settlement'];
/** Events whose fingerprint identifies a funding instrument. */
const FINGERPRINTED: readonly AmlEventType[] = ['deposit', 'withdrawal', 'account_update'];

export interface EventAck {
  event_id: string;
  transaction_id: string;
  received_at: Date;
  processing: 'queued' | 'duplicate_already_queued';
}

const invalid = (message: string) => new AppError('invalid_event', message);

/**
 * Events of concurrent requests share one INSERT and one commit (group commit), on the pool: never in a caller's
 * transaction.
 */
export const amlEventsGroupCommit = (db: Platform['db'], config: Platform['config']) =>
  databaseGroupCommit(config, (rows: NewEvent[]) => insertEvents(db, rows));

declare module '../../../platform/group-commit.js' {
  interface GroupCommits {
    amlEvents: ReturnType<typeof amlEventsGroupCommit>;
  }
}

/**
 * R-006's instrument: metadata.payment_method_fingerprint, and nothing else. payment_method ("card") is a kind of
 * instrument shared by every card user, so an event without a fingerprint takes no part in R-006.
 */
export function fingerprintOf(input: Pick<AmlEventRequest, 'event_type' | 'metadata'>) {
  if (!FINGERPRINTED.includes(input.event_type)) return null;
  return input.metadata?.payment_method_fingerprint ?? null;
}

/**
 * Fire-and-forget ingest: the event is durably stored (queued for evaluation) before it is acknowledged. The hot
 * path is one row of a grouped INSERT … ON CONFLICT DO NOTHING; only a repeated transaction_id costs a second read.
 * A repeat of a pending event with its outcome (succeeded or failed) records the outcome and queues it again.
 */
export async function ingestEvent(
  platform: Platform,
  ctx: TenantContext,
  input: AmlEventRequest,
): Promise<EventAck> {
  if (input.amount_cents === 0 && AMOUNT_REQUIRED.includes(input.event_type)) {
    throw invalid(`amount_cents must be at least 1 for a ${input.event_type} event`);
  }
  const ack = await storeEvent(platform, ctx, input);
  if (input.event_type === 'deposit' && input.metadata?.status === 'failed' && ack.processing === 'queued') {
    await failedDepositAccepted(ctx, input);
  }
  return ack;
}

async function storeEvent(platform: Platform, ctx: TenantContext, input: AmlEventRequest): Promise<EventAck> {
  const tenantId = ctx.tenantId;
  const occurredAt = new Date(input.occurred_at);
  const metadata = input.metadata ?? {};
  const status = metadata.status ?? 'succeeded';
  // The outcome is not part of the event's identity: a pending event's later outcome is the same event, settled.
  const { status: _outcome, ...identifying } = metadata;
  const requestHash = requestFingerprint({
    user_id: input.user_id,
    event_type: input.event_type,
    amount_cents: input.amount_cents,
    currency: input.currency,
    payment_method: input.payment_method ?? null,
    metadata: identifying,
    occurred_at: occurredAt.toISOString(),
  });
  try {
    if (input.amount_cents > 0) {
      await requireFxRate(ctx.db, input.currency, () =>
        invalid(`No exchange rate for ${input.currency}; amounts in it cannot be monitored`),
      );
    }
    const eventId = newId('aml_event');
    const inserted = await platform.groupCommits.amlEvents.submit({
      event_id: eventId,
      tenant_id: tenantId,
      user_id: input.user_id,
      event_type: input.event_type,
      transaction_id: input.transaction_id,
      amount_cents: input.amount_cents,
      currency: input.currency,
      minor_scale: minorScale(input.currency),
      payment_method: input.payment_method ?? null,
      fingerprint: fingerprintOf(input),
      status,
      metadata: JSON.stringify(metadata),
      occurred_at: occurredAt,
      received_at: ctx.clock.now(),
      request_hash: requestHash,
    });
    if (inserted) return { ...inserted, transaction_id: input.transaction_id, processing: 'queued' };

    const existing = await findEventByTransaction(ctx.db, tenantId, input.transaction_id);
    if (!existing) throw new Error(`event ${input.transaction_id} conflicted but cannot be read`);
    if (existing.request_hash !== requestHash) {
      throw new AppError(
        'duplicate_event',
        `Transaction ${input.transaction_id} was already received with different details; the original stands`,
      );
    }
    if (existing.status !== status) {
      const settled =
        existing.status === 'pending' && status !== 'pending'
          ? await settlePendingEvent(ctx.db, existing, status, ctx.clock.now())
          : undefined;
      if (!settled) {
        throw new AppError(
          'duplicate_event',
          `Transaction ${input.transaction_id} was already received as ${existing.status}; an outcome other than pending is final`,
        );
      }
      return {
        event_id: existing.event_id,
        transaction_id: input.transaction_id,
        received_at: existing.received_at,
        processing: 'queued',
      };
    }
    return {
      event_id: existing.event_id,
      transaction_id: input.transaction_id,
      received_at: existing.received_at,
      processing: 'duplicate_already_queued',
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    // A value the database refuses is refused again on every retry: a 500 to look into, not a 503 to retry.
    if (isRefusedValue(error)) throw error;
    platform.log.error({ err: error }, 'aml event could not be stored');
    throw new AppError('queue_unavailable', 'The event could not be stored; retry with backoff');
  }
}
