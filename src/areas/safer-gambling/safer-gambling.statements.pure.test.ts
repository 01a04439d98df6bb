import { expect, it } from 'vitest';
import { capturedSql } from '../../../test/helpers/sql-capture.js';
import { depositMeasures, stakeMeasures } from './safer-gambling.evaluation.store.js';

const at = new Date('2030-01-01T12:00:00Z');
const player = { tenant_id: 'ten_1', user_id: 'user_1', at };

it("the markers' reads of an AML evaluation batch send the SQL committed beside them", async () => {
  await expect(
    await capturedSql('depositMeasures', 'async AML rules', (db) =>
      depositMeasures(db, [
        {
          ...player,
          status: 'succeeded',
          chase_window_seconds: 3_600,
          chase_min_loss_usd_cents: 10_000,
          profile_currency: 'GBP',
          profile_scale: 100,
        },
      ]),
    ),
  ).toMatchFileSnapshot('./statements/deposit-measures.sql');
  await expect(
    await capturedSql('stakeMeasures', 'async AML rules', (db) =>
      stakeMeasures(db, [{ ...player, time_zone: 'UTC' }]),
    ),
  ).toMatchFileSnapshot('./statements/stake-measures.sql');
});
