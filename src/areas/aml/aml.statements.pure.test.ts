import { expect, it } from 'vitest';
import { capturedSql } from '../../../test/helpers/sql-capture.js';
import { insertEvents } from './statements/aml-event.js';
import { insertScreen } from './statements/aml-screen.js';

const at = new Date('2030-01-01T12:00:00Z');

it('the AML event and screen statements send the SQL committed beside them', async () => {
  const event = {
    event_id: 'evt_1',
    tenant_id: 'ten_1',
    user_id: 'user_1',
    event_type: 'deposit',
    transaction_id: 'tx_1',
    amount_cents: 10_000,
    currency: 'USD',
    minor_scale: 2,
    payment_method: 'card',
    fingerprint: null,
    status: 'succeeded',
    metadata: '{}',
    occurred_at: at,
    received_at: at,
    request_hash: 'hash',
  } as unknown as Parameters<typeof insertEvents>[1][number];
  await expect(
    await capturedSql('insertEvents', 'aml_event', (db) => insertEvents(db, [event])),
  ).toMatchFileSnapshot('./statements/aml-event.sql');
  const opened = {
    status: 'on_hold',
    origin: 'screen_reject',
    transaction_ids: ['tx_1'],
    context: '{}',
    due_at: at,
    warning_at: at,
  } as unknown as Parameters<typeof insertScreen>[2];
  await expect(
    await capturedSql('insertScreen', 'aml_screen', (db) =>
      insertScreen(db, { tenant_id: 'ten_1' } as Parameters<typeof insertScreen>[1], opened),
    ),
  ).toMatchFileSnapshot('./statements/aml-screen.sql');
});
