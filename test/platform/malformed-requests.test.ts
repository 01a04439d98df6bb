import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import type { RouteSummary } from '../../src/app.js';
import { tokenMay } from '../../src/staff/staff.rules.js';
import { staffOf } from '../helpers/staff-driver.js';
import { BACKOFFICE_TOKEN, TestService, type TestTenant } from '../helpers/test-service.js';
import {
  DATE_EDGES,
  datedRequest,
  dateFields,
  malformedRequest,
  type Context,
  type DateField,
  type GeneratedRequest,
} from './malformed-requests.arbitraries.js';
import { storedRows } from './stored-rows.js';

/** Generated malformed requests per route: at least 200 each, as issue 16 asks. */
const RUNS_PER_ROUTE = 200;
/** Requests sent with a wrong credential come from their own address, so a per-address limit on failures meets only them. */
const PROBING_ADDRESS = '198.51.100.77';

/**
 * Every tenant and back-office route of the app, enumerated from the app itself (so a new route is covered without
 * editing this test), gets generated malformed requests on the suite's database. None may answer 5xx or 2xx; every
 * answer is the spec's error body; and no table gains or loses a row (auth-failure logs aside: see storedRows).
 */

/** A signed-in admin's cookie and anti-forgery header, for the back-office routes only a person may call. */
async function sessionHeaders(t: TestService): Promise<Record<string, string>> {
  const { cookie, csrfToken } = await staffOf(t, 'admin');
  return { cookie: `console_session=${cookie}`, 'x-csrf-token': csrfToken };
}

describe('malformed requests to every route', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const created = await t.createTenant();
    const adminKey = await t.issueKey(created.tenantId, 'admin');
    const tenant: TestTenant = { ...created, apiKey: adminKey };
    // The budget would otherwise answer 429 after a hundred requests, and the generated faults would go untried.
    await t.backoffice('PUT', `/tenants/${tenant.tenantId}/rate-limits`, {
      default_per_minute: 1_000_000,
      exclusions_per_minute: 1_000_000,
      aml_event_per_minute: 1_000_000,
    });
    const event = await t.backoffice('POST', `/tenants/${tenant.tenantId}/webhook/ping`);
    const context: Context = {
      now: t.platform.clock.now().getTime(),
      knownParams: {
        tenant_id: [tenant.tenantId],
        key_prefix: [adminKey.slice(0, 20)],
        event_id: [event.json<{ event_id: string }>().event_id],
        code: ['GB', 'US', 'CA-ON'],
        currency: ['EUR', 'GBP'],
      },
    };
    const routes = t.service.app.routeCatalogue.filter(
      (route) =>
        route.method !== 'HEAD' && (route.url.startsWith('/v1/') || route.url.startsWith('/backoffice/v1/')),
    );
    return { t, tenant, context, routes };
  });

  /** Mostly the right credential (so the fault is what is refused); now and then a wrong one, from elsewhere. */
  function credentials(
    route: RouteSummary,
  ): fc.Arbitrary<{ headers: Record<string, string>; probing: boolean }> {
    const { tenant } = suite.current;
    const right = route.url.startsWith('/backoffice/') ? BACKOFFICE_TOKEN : tenant.apiKey;
    const wrong = fc.constantFrom<Record<string, string>>(
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: `Bearer svc_sk_test_${'Z'.repeat(32)}` },
      { authorization: `Bearer ${right}x` },
      { authorization: 'Bearer' },
    );
    return fc.oneof(
      {
        weight: 19,
        arbitrary: fc.constant({ headers: { authorization: `Bearer ${right}` }, probing: false }),
      },
      { weight: 1, arbitrary: wrong.map((headers) => ({ headers, probing: true })) },
    );
  }

  /** Sends the request: never a 5xx; unless `refusedOnly` is false, a 4xx in the error body. */
  async function send(request: GeneratedRequest & { probing?: boolean }, { refusedOnly = true } = {}) {
    const { t } = suite.current;
    const response = await t.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: request.headers,
      ...(request.payload === undefined ? {} : { payload: request.payload }),
      ...(request.probing ? { remoteAddress: PROBING_ADDRESS } : {}),
    });
    const where = `${request.method} ${request.url.slice(0, 300)} (${request.fault}) → ${response.statusCode} ${response.body.slice(0, 300)}`;
    expect(response.statusCode, where).toBeLessThan(500);
    if (!refusedOnly && response.statusCode < 400) return response;
    expect(response.statusCode, where).toBeGreaterThanOrEqual(400);
    expect(response.headers['content-type'], where).toMatch(/^application\/json/);
    const body = response.json<Record<string, unknown>>();
    expect(body, where).toMatchObject({
      error: expect.stringMatching(/^[a-z_]+$/),
      message: expect.any(String),
      request_id: response.headers['x-request-id'],
    });
    return response;
  }

  /** The 400 code the route declares for a validation failure of this field (errors.ts reads it the same way). */
  function validationCode(route: RouteSummary, field: DateField): string {
    const configured = route.config?.validationErrorCode ?? 'invalid_request';
    if (typeof configured === 'string') return configured;
    return configured[String(field.path[0])] ?? configured['*'] ?? 'invalid_request';
  }

  it('refuses dates at the edges in every date and timestamp field with its 400, and takes the range ends without a 5xx', async () => {
    const { t, tenant, context, routes } = suite.current;
    const fields = routes.flatMap((route) => dateFields(route).map((field) => ({ route, field })));
    const named = fields.map(({ route, field }) => `${route.method} ${route.url} ${field.path.join('/')}`);
    // Derived from the schemas; these few are named so that a change in the derivation cannot empty the list.
    expect(named).toEqual(
      expect.arrayContaining([
        'POST /v1/sanctions/screen date_of_birth',
        'POST /v1/limits requested_at',
        'POST /v1/aml/event occurred_at',
        'GET /backoffice/v1/reports period',
        'POST /backoffice/v1/reports/regenerate period',
      ]),
    );
    const started = performance.now();
    let sent = 0;
    for (const { route, field } of fields) {
      // A person's routes (a decision, a rescreen) take a signed-in admin; every other back-office route the token.
      const headers = !route.url.startsWith('/backoffice/')
        ? { authorization: `Bearer ${tenant.apiKey}` }
        : tokenMay(route.method, route.url.slice('/backoffice/v1'.length))
          ? { authorization: `Bearer ${BACKOFFICE_TOKEN}` }
          : await sessionHeaders(t);
      const before = await storedRows(t.db);
      const code = validationCode(route, field);
      for (const value of DATE_EDGES[field.format].refused) {
        await fc.assert(
          fc.asyncProperty(datedRequest(route, context, field, value, headers), async (request) => {
            const response = await send(request);
            expect(response.statusCode, request.fault).toBe(400);
            expect(response.json<{ error: string }>().error, request.fault).toBe(code);
          }),
          { numRuns: 2 },
        );
        sent += 2;
      }
      expect(await storedRows(t.db), `rows written by ${route.method} ${route.url}`).toEqual(before);
      for (const value of DATE_EDGES[field.format].accepted) {
        await fc.assert(
          fc.asyncProperty(datedRequest(route, context, field, value, headers), async (request) => {
            await send(request, { refusedOnly: false });
          }),
          { numRuns: 1 },
        );
        sent += 1;
      }
    }
    t.platform.log.info(
      { fields: fields.length, requests: sent, seconds: Math.round((performance.now() - started) / 1000) },
      'dates at the edges sent',
    );
  }, 60_000);

  it(`refuses every one with a 4xx in the error body, and stores nothing (${RUNS_PER_ROUTE} per route)`, async () => {
    const { t, context, routes } = suite.current;
    expect(routes.length).toBeGreaterThan(50);
    const started = performance.now();
    const sent: string[] = [];
    for (const route of routes) {
      const before = await storedRows(t.db);
      const requests = credentials(route).chain(({ headers, probing }) =>
        malformedRequest(route, context, fc.constant(headers)).map((request) => ({ ...request, probing })),
      );
      await fc.assert(
        fc.asyncProperty(requests, async (request) => {
          await send(request);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
      expect(await storedRows(t.db), `rows written by ${route.method} ${route.url}`).toEqual(before);
      sent.push(`${route.method} ${route.url}`);
    }
    t.platform.log.info(
      { routes: sent.length, seconds: Math.round((performance.now() - started) / 1000) },
      'malformed requests sent',
    );
  }, 240_000);
});
