import { expect, it } from 'vitest';
import { capturedSql } from '../../../test/helpers/sql-capture.js';
import { auditChecks } from './statements/geo-check.js';

it('the geo check sends the SQL committed beside it', async () => {
  const row = {
    tenant_id: 'ten_1',
    checked_at: new Date('2030-01-01T12:00:00Z'),
    request_id: 'req_1',
    ip_address: '203.0.113.7',
    user_agent: null,
    context: 'login',
    resolver: 'sandbox',
    country_code: 'DE',
    region: null,
    status: null,
    cache: 'miss',
  } as unknown as Parameters<typeof auditChecks>[1][number];
  await expect(
    await capturedSql('auditChecks', 'geo_check', (db) => auditChecks(db, [row])),
  ).toMatchFileSnapshot('./statements/geo-check.sql');
});
