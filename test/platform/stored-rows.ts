import { sql, type Kysely } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { DB } from '../../src/platform/db/schema.js';

/**
 * The row count of every table of the service's schema. Rows that an authentication failure writes (the security
 * log, and `auth.failed` entries of a tenant's audit log) are left out: recording a refused key is the point of
 * those logs (spec, Authentication 6), so a request refused at authentication may write them.
 */
export async function storedRows(db: Kysely<DB>): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'security_log'
    order by table_name`.execute(db);
  const counts = tables.rows.map(({ name }) =>
    name === 'audit_log'
      ? sql`select ${name}::text as name, count(*)::int as count from audit_log where action <> 'auth.failed'`
      : sql`select ${name}::text as name, count(*)::int as count from ${sql.table(name)}`,
  );
  const result = await sql<{ name: string; count: number }>`${sql.join(counts, sql` union all `)}`.execute(
    db,
  );
  return Object.fromEntries(result.rows.map((row) => [row.name, Number(row.count)]));
}

/** A refusal in the spec's error body: the status, the code, a message, and the request id of the X-Request-Id header. */
export function expectRefused(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<Record<string, unknown>>();
  expect(body).toMatchObject({
    error: code,
    message: expect.any(String),
    request_id: expect.stringMatching(/^req_/),
  });
  expect(body.request_id).toBe(response.headers['x-request-id']);
  return body;
}
