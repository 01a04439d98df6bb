import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/platform/logger.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

type LogLine = Record<string, unknown> & { msg?: string };

/** Where a logger's lines land, as written. */
function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => void lines.push(line) } };
}

describe('the log lines of a request', () => {
  const suite = useSuite(async (own) => {
    const log = capture();
    // debug: the line per request, written by the request's own logger.
    const t = own(await TestService.start({ logLevel: 'debug', logTo: log.destination }));
    const tenant = await t.createTenant();
    const parsed = () => log.lines.map((line) => JSON.parse(line) as LogLine);
    return { t, tenant, parsed };
  });

  const event = {
    user_id: 'player-logs',
    event_type: 'deposit',
    transaction_id: 'tx-logs-1',
    amount_cents: 1000,
    currency: 'USD',
    occurred_at: '2030-01-01T11:59:00Z',
  };

  it("an area's line carries the request id and the caller's trace, as the request's own lines do", async () => {
    const { t, tenant, parsed } = suite.current;
    // The events table gone, storing an event fails: the AML area logs it through the service's logger.
    await sql`alter table aml_events rename to aml_events_away`.execute(t.db);
    try {
      const response = await t.inject({
        method: 'POST',
        url: '/v1/aml/event',
        headers: { authorization: `Bearer ${tenant.apiKey}`, traceparent: TRACEPARENT },
        payload: event,
      });
      expect(response.statusCode).toBe(503);
      const requestId = response.headers['x-request-id'];
      const areaLine = parsed().find((line) => line.msg === 'aml event could not be stored');
      expect(areaLine).toMatchObject({ request_id: requestId, trace_id: TRACE_ID, span_id: SPAN_ID });
      const requestLine = parsed().find((line) => line.msg === 'request' && line.request_id === requestId);
      expect(requestLine).toMatchObject({ status: 503, trace_id: TRACE_ID, span_id: SPAN_ID });
    } finally {
      await sql`alter table aml_events_away rename to aml_events`.execute(t.db);
    }
  });

  it('a malformed traceparent is ignored: the request is served and its lines carry no trace', async () => {
    const { t, tenant, parsed } = suite.current;
    const response = await t.inject({
      method: 'POST',
      url: '/v1/aml/event',
      headers: { authorization: `Bearer ${tenant.apiKey}`, traceparent: `00-${TRACE_ID}-not-a-span-01` },
      payload: { ...event, transaction_id: 'tx-logs-2' },
    });
    expect(response.statusCode).toBe(202);
    const requestLine = parsed().find(
      (line) => line.msg === 'request' && line.request_id === response.headers['x-request-id'],
    );
    expect(requestLine).toBeDefined();
    expect(requestLine).not.toHaveProperty('trace_id');
  });

  it('a line written after the request was answered carries none of its fields', async () => {
    const { t, parsed } = suite.current;
    // The service's app with one route more, whose leftover work (a timer it started) logs once the answer is out.
    const app = await buildApp({
      platform: t.platform,
      logger: t.platform.log as Logger,
      backofficeTokenHash: '',
    });
    let late: Promise<void> | undefined;
    app.get('/late', async () => {
      t.platform.log.info('during the request');
      late = new Promise((resolve) => setTimeout(resolve, 10)).then(() =>
        t.platform.log.info('after the answer'),
      );
      return {};
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/late' });
      await late;
      const line = (msg: string) => parsed().find((l) => l.msg === msg);
      expect(line('during the request')).toMatchObject({ request_id: response.headers['x-request-id'] });
      expect(line('after the answer')).not.toHaveProperty('request_id');
    } finally {
      await app.close();
    }
  });
});

describe('human-readable lines', () => {
  it('redact contacts and secrets as JSON lines do', () => {
    const log = capture();
    const logger = createLogger({ logLevel: 'info', logFormat: 'pretty' }, log.destination);
    logger.info(
      { email: 'jane.doe@example.com', player: { phone: '+447700900123', email: 'jane.doe@example.com' } },
      'a player was checked',
    );
    const text = log.lines.join('');
    expect(text).toContain('a player was checked');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('jane.doe');
    expect(text).not.toContain('7700900123');
    // Lines for a person, not JSON.
    expect(() => JSON.parse(log.lines[0]!) as unknown).toThrow();
  });
});
