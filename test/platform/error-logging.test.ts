import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/platform/logger.js';
import { BACKOFFICE_TOKEN, TestService } from '../helpers/test-service.js';

const PLAYER = 'jane.doe+vip@example.com';

interface LogLine {
  msg?: string;
  err?: { message?: string; code?: string } & Record<string, unknown>;
}

/** A logger like the service's, writing its lines here. */
function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as LogLine) };
}

describe('unexpected errors are logged without values', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const log = capturingLogger();
    const app = own(
      await buildApp({
        platform: t.platform,
        logger: log.logger,
        backofficeTokenHash: createHash('sha256').update(BACKOFFICE_TOKEN).digest('hex'),
        redis: t.platform.redis,
      }),
    );
    // A rule the service does not know of, so that its insert fails as an unexpected database error would.
    await sql`alter table tenants add constraint test_refuses_players check (name not like '%@%')`.execute(
      t.db,
    );
    return { t, app, log };
  });

  it('an unexpected database error logs its code and message, not its detail or parameters', async () => {
    const { app, log } = suite.current;
    const response = await app.inject({
      method: 'POST',
      url: '/backoffice/v1/tenants',
      headers: { authorization: `Bearer ${BACKOFFICE_TOKEN}` },
      payload: { name: `Operator of ${PLAYER}`, environment: 'sandbox' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json().error).toBe('internal_error');
    expect(response.body).not.toContain(PLAYER);

    const line = log.lines.find((l) => l.includes('unhandled error'));
    expect(line).toBeDefined();
    const { err } = JSON.parse(line!) as { err: Record<string, unknown> };
    expect(err).toMatchObject({
      code: '23514',
      message: expect.stringContaining('violates check constraint "test_refuses_players"'),
      constraint: 'test_refuses_players',
    });
    for (const field of ['detail', 'where', 'params', 'parameters', 'query', 'queryOptions']) {
      expect(err, field).not.toHaveProperty(field);
    }
    // The row's values (the name, the encrypted secret, the ids) are in PostgreSQL's detail and the parameters.
    expect(line).not.toContain('jane.doe');
    expect(line).not.toContain('Failing row');
    expect(line).not.toContain('enc:v2:');
  });

  it('a data exception logs its message with the offending value replaced', async () => {
    const { t, log } = suite.current;
    const error = await sql`select ${PLAYER}::integer as n`.execute(t.db).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    log.logger.error({ err: error }, 'a query failed');
    const err = log.parsed().find((l) => l.msg === 'a query failed')!.err!;
    expect(err.code).toBe('22P02');
    expect(err.message).toBe('invalid input syntax for type integer: "[redacted]"');
    expect(JSON.stringify(err)).not.toContain('jane.doe');
  });

  it('an error whose cause is a database error keeps the cause out of the fields too', async () => {
    const { t, log } = suite.current;
    const cause = await sql`select ${PLAYER}::integer as n`.execute(t.db).then(
      () => undefined,
      (e: unknown) => e,
    );
    const wrapped = Object.assign(new Error('could not store the check', { cause }), { params: [PLAYER] });
    log.logger.error(wrapped);
    const err = log.parsed().find((l) => l.err?.message?.startsWith('could not store the check'))!.err!;
    expect(err.message).toContain('invalid input syntax');
    expect(JSON.stringify(err)).not.toContain('jane.doe');
  });
});
