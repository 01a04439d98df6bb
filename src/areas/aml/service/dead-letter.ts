import type { Transaction } from 'kysely';
import { raiseAlert } from '../../../platform/alerts.js';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { newId } from '../../../platform/ids.js';
import { insertDeadLetter } from '../aml.dead-letters.store.js';
import type { AmlEvent } from '../aml.tables.js';

/** Dead letters: an event whose evaluation failed on every attempt, kept for staff to look into and re-drive. */

export const deadLettersCounter = (platform: Pick<Platform, 'metrics'>) =>
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
  const stored = await insertDeadLetter(tx, {
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
