import { expect, it } from 'vitest';
import { capturedSql } from '../../../test/helpers/sql-capture.js';
import { mostRestrictiveMatches } from './statements/exclusion-check.js';

it('the exclusion check sends the SQL committed beside it', async () => {
  const check = {
    tenantId: 'ten_1',
    environment: 'sandbox' as const,
    email: 'hash-of-an-email',
    phone: null,
    includeRegulator: true,
    now: new Date('2030-01-01T12:00:00Z'),
  };
  await expect(
    await capturedSql('mostRestrictiveMatches', 'exclusions_check', (db) =>
      mostRestrictiveMatches(db, [check]),
    ),
  ).toMatchFileSnapshot('./statements/exclusion-check.sql');
});
