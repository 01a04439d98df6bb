import { expect, it } from 'vitest';
import { capturedSql } from '../../../test/helpers/sql-capture.js';
import { checkInOneStatement } from './statements/limits-check.js';
import { windowStates } from './statements/limits-windows.js';

const now = new Date('2030-01-01T12:00:00Z');

it('the limits check sends the SQL committed beside it', async () => {
  const input = { tenantId: 'ten_1', userId: 'user_1', amountCents: 5_000, now };
  await expect(
    await capturedSql('checkInOneStatement', 'limits_check', (db) =>
      checkInOneStatement(db, [
        {
          ...input,
          currency: 'EUR',
          eventId: 'evt_1',
          holdId: 'rsv_1',
          holdExpiresAt: new Date(now.getTime() + 900_000),
        },
      ]),
    ),
  ).toMatchFileSnapshot('./statements/limits-check.sql');
  await expect(
    await capturedSql('windowStates', 'none: GET /v1/limits', (db) => windowStates(db, input)),
  ).toMatchFileSnapshot('./statements/limits-windows.sql');
});
