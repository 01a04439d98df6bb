import type { Transaction } from 'kysely';
import { raiseAlert } from '../../platform/alerts.js';
import { recordAudit } from '../../platform/audit.js';
import type { Platform } from '../../platform/context.js';
import type { DB } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import * as store from './aml.dead-letters.store.js';
import type { AmlEvent } from './aml.tables.js';

/** Dead letters: an event whose evaluation failed on every attempt, kept for staff to look into and re-drive. */

const deadLettersCounter = (platform: Pick<Platform, 'metrics'>) =>
  platform.metrics.counter(
    'compliance_aml_dead_letters_total',
    'AML events moved to the dead letters after their evaluation failed on every attempt',
  );

/**
 * Moves an event to the dead letters, in the caller's transaction: the row, an alert (logged at error level) and
 * the counter. Nothing is sent to the tenant.
 */
export async function deadLetter(
  tx: Transaction<DB>,
  platform: Pick<Platform, 'log' | 'metrics'>,
  input: { event: AmlEvent; attempts: number; error: string; at: Date },
): Promise<void> {
  const { event } = input;
  const stored = await store.insertDeadLetter(tx, {
    dead_letter_id: newId('aml_dead_letter'),
    event_id: event.event_id,
    tenant_id: event.tenant_id,
    attempts: input.attempts,
    last_error: input.error,
    dead_lettered_at: input.at,
  });
  if (!stored) return;
  await raiseAlert(
    tx,
    platform.log,
    {
      kind: 'aml_dead_letter',
      subject: event.event_id,
      message: `AML event ${event.event_id} (transaction ${event.transaction_id}) failed evaluation ${input.attempts} times and was dead-lettered: ${input.error}`,
      details: {
        dead_letter_id: stored.dead_letter_id,
        tenant_id: event.tenant_id,
        transaction_id: event.transaction_id,
        attempts: input.attempts,
      },
    },
    input.at,
  );
  deadLettersCounter(platform).inc();
}

export async function staffDeadLetters(
  platform: Platform,
  query: { tenant_id?: string | undefined; redriven: boolean; after?: string | undefined; limit: number },
) {
  const rows = await store.listDeadLetters(platform.db, {
    tenantId: query.tenant_id,
    redriven: query.redriven,
    after: query.after,
    limit: query.limit,
  });
  return { dead_letters: rows };
}

/**
 * Puts a dead-lettered event back in the evaluation queue, marks the dead letter re-driven and writes the audit row,
 * in one transaction. If it fails again it goes through its retries and back to the dead letters.
 */
export async function redriveDeadLetter(
  platform: Platform,
  deadLetterId: string,
  input: { actor: string; reason: string },
  requestId: string,
) {
  return platform.db.transaction().execute(async (tx) => {
    const found = await store.findDeadLetter(tx, deadLetterId, true);
    if (!found) throw new AppError('dead_letter_not_found', 404, `No AML dead letter ${deadLetterId}`);
    if (found.redriven_at) {
      throw new AppError(
        'dead_letter_already_redriven',
        409,
        `Dead letter ${deadLetterId} was re-driven at ${found.redriven_at.toISOString()} by ${found.redriven_by}`,
      );
    }
    const now = platform.clock.now();
    const redriven = await store.markRedriven(tx, deadLetterId, input.actor, now);
    await store.requeueEvent(tx, found.event_id, now);
    await recordAudit(tx, {
      tenantId: found.tenant_id,
      actor: input.actor,
      action: 'aml.dead_letter_redriven',
      requestId,
      details: { dead_letter_id: deadLetterId, event_id: found.event_id, reason: input.reason },
      at: now,
    });
    return redriven;
  });
}
