import net from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { TenantDriver } from '../helpers/tenant-driver.js';
import { BACKOFFICE_TOKEN } from '../helpers/test-service.js';
import { expectRefused, storedRows } from './stored-rows.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  closed: boolean;
}

/** Sends bytes over a real connection and reads one response: what Node's parser refuses never reaches inject. */
function sendRaw(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => socket.destroy(new Error('no answer within 5 s')), 5000);
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    // The server may close while the client is still sending: the answer has been read by then.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!['EPIPE', 'ECONNRESET'].includes(error.code ?? '')) reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', ...rest] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.join('\r\n\r\n'),
        closed: true,
      });
    });
    socket.write(request);
  });
}

function expectRawRefused(response: RawResponse, status: number, code: string) {
  expect(response.status, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(body).toEqual({
    error: code,
    message: expect.any(String),
    request_id: expect.stringMatching(/^req_/),
  });
  expect(body.request_id).toBe(response.headers['x-request-id']);
}

/** Refusals raised by the framework before a route runs answer in the spec's error body too (issue 16). */
describe('errors raised before a route runs', () => {
  const suite = useSuite(async (own) => {
    const { t, tenant } = own(await TenantDriver.start());
    await t.service.app.listen({ port: 0, host: '127.0.0.1' });
    return { t, tenant, port: (t.service.app.server.address() as net.AddressInfo).port };
  });
  let before: Record<string, number>;
  const bearer = () => ({ authorization: `Bearer ${suite.current.tenant.apiKey}` });
  beforeEach(async () => {
    const { t } = suite.current;
    before = await storedRows(t.db);
  });

  it('a path that is not percent-encoded UTF-8 is 400 invalid_url, on any route', async () => {
    const { t } = suite.current;
    for (const url of [
      '/v1/limits/%E0%A4%A',
      '/v1/limits/%ZZ',
      '/v1/limits/lim_%ED%A0%80',
      '/v1/geo/countr%ies',
      '/backoffice/v1/tenants/%C0%80',
    ]) {
      const method = url.startsWith('/v1/limits') ? 'DELETE' : 'GET';
      expectRefused(await t.inject({ method, url, headers: bearer() }), 400, 'invalid_url');
    }
    expect(await storedRows(t.db)).toEqual(before);
  });

  it('a path parameter over 200 characters is 414 uri_too_long; one of 200 reaches the route', async () => {
    const { t } = suite.current;
    const long = await t.inject({
      method: 'DELETE',
      url: `/v1/limits/${'a'.repeat(201)}`,
      headers: bearer(),
    });
    expectRefused(long, 414, 'uri_too_long');
    const staff = await t.backoffice('GET', `/tenants/${'t'.repeat(500)}`);
    expectRefused(staff, 414, 'uri_too_long');
    const longest = await t.inject({
      method: 'DELETE',
      url: `/v1/limits/${'a'.repeat(200)}`,
      headers: bearer(),
    });
    expectRefused(longest, 404, 'limit_not_found');
    expect(await storedRows(t.db)).toEqual(before);
  });

  it('a body that is not JSON, or not valid JSON, is 400 in the area code, on routes with or without a body', async () => {
    const { t, tenant } = suite.current;
    const cases: [string, string, string, string, string][] = [
      ['/v1/limits', 'text/plain', 'user_id=1', 'invalid_request', 'POST'],
      ['/v1/exclusions', 'application/xml', '<x/>', 'invalid_payload', 'POST'],
      ['/v1/aml/event', 'application/x-www-form-urlencoded', 'a=1', 'invalid_event', 'POST'],
      ['/v1/geo/check', 'multipart/form-data; boundary=x', '--x--', 'invalid_ip', 'POST'],
      ['/v1/aml/event', 'application/json', '{"user_id":', 'invalid_event', 'POST'],
      ['/v1/limits/check', 'application/json', '', 'invalid_request', 'POST'],
      ['/v1/sanctions/screen', 'application/json', '{"__proto__":{"x":1}}', 'missing_fields', 'POST'],
      // A route that takes no body still refuses one it cannot parse, before its handler runs.
      ['/v1/kyc/sandbox-vendor/not-a-token/begin', 'text/plain', 'x', 'invalid_request', 'POST'],
    ];
    for (const [url, contentType, payload, code, method] of cases) {
      const response = await t.inject({
        method: method as 'POST',
        url,
        payload,
        headers: { ...bearer(), 'content-type': contentType },
      });
      expectRefused(response, 400, code);
    }
    const suspend = await t.inject({
      method: 'POST',
      url: `/backoffice/v1/tenants/${tenant.tenantId}/suspend`,
      payload: 'please',
      headers: { authorization: `Bearer ${BACKOFFICE_TOKEN}`, 'content-type': 'text/plain' },
    });
    expectRefused(suspend, 400, 'invalid_request');
    expect((await t.backoffice('GET', `/tenants/${tenant.tenantId}`)).json().status).toBe('active');
    expect(await storedRows(t.db)).toEqual(before);
  });

  it('headers or a query string over 16 KiB are 431 headers_too_large', async () => {
    const { t, tenant, port } = suite.current;
    const headers = await sendRaw(
      port,
      `GET /v1/limits?user_id=p HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.apiKey}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectRawRefused(headers, 431, 'headers_too_large');
    const query = await sendRaw(
      port,
      `GET /v1/exclusions/check?email=${'a'.repeat(20_000)}@example.com HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.apiKey}\r\n\r\n`,
    );
    expectRawRefused(query, 431, 'headers_too_large');
    expect(await storedRows(t.db)).toEqual(before);
  });

  it('a request Node cannot parse is 400 bad_request', async () => {
    const { port } = suite.current;
    expectRawRefused(await sendRaw(port, 'NOT HTTP AT ALL\r\n\r\n'), 400, 'bad_request');
    expectRawRefused(
      await sendRaw(port, 'GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n'),
      400,
      'bad_request',
    );
    expectRawRefused(
      await sendRaw(
        port,
        'POST /v1/limits HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      ),
      400,
      'bad_request',
    );
  });

  it('a body over 1 MiB on a closing connection is 400 in the area code, and the connection closes', async () => {
    const { t, tenant, port } = suite.current;
    const declared = await sendRaw(
      port,
      `POST /v1/aml/event HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.apiKey}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n{"user_id":"${'x'.repeat(64 * 1024)}`,
    );
    expectRawRefused(declared, 400, 'invalid_event');
    expect(declared.closed).toBe(true);
    const chunk = 'f'.repeat(4) + '\r\n' + 'x'.repeat(0xffff) + '\r\n';
    const chunked = await sendRaw(
      port,
      `POST /v1/exclusions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.apiKey}\r\nContent-Type: application/json\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.repeat(20)}0\r\n\r\n`,
    );
    expectRawRefused(chunked, 400, 'invalid_payload');
    expect(await storedRows(t.db)).toEqual(before);
  });
});
