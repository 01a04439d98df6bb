import type { LightMyRequestResponse } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes, fillPath, routeName, type ApiRoute } from '../helpers/route-table.js';
import { BACKOFFICE_TOKEN, TestService, type TestTenant } from '../helpers/test-service.js';
import { expectRefused } from './stored-rows.js';

/**
 * Issue 18's negative-auth suite: every tenant and back-office route, read from the app's own route table, is sent
 * every credential it must refuse, and each route+case is a test of its own. A route added later gets its cases
 * without editing this file (a new kind of id needs only a maker of its resource, and the suite says so).
 */

// One service for the file, started while the file is collected: the route table must exist before the tests do.
const t = await TestService.start();
afterAll(() => t.close());

const routes = apiRoutes(t.service.app);
const tenantRoutes = routes.filter((route) => route.surface === 'tenant');
const backofficeRoutes = routes.filter((route) => route.surface === 'backoffice');
const publicRoutes = routes.filter((route) => route.surface === 'public');

/**
 * Admin-only operations (spec, Authentication 7), as the routes declare them (`adminOnly` in platform/auth.ts). The
 * suite checks that no other route refuses a standard key.
 */
const ADMIN_ONLY = new Set(tenantRoutes.filter((route) => route.adminOnly).map(routeName));

/** What a test sends as its Authorization header; resolved once the fixtures exist. */
type Credential =
  | 'none'
  | 'bearer_nonsense'
  | 'basic'
  | 'unknown_key'
  | 'revoked_key'
  | 'suspended_tenant_key'
  | 'standard_key'
  | 'other_tenant_key'
  | 'tenant_key'
  | 'wrong_token';

interface AuthCase {
  name: string;
  credential: Credential;
  /** `status` and `error` left undefined: whatever the route answers for ids never issued (docs/api.md, Errors). */
  status: number | undefined;
  error: string | undefined;
  /** The staff role a back-office case runs as. Staff accounts arrive in a later issue; until then every case has none. */
  role?: string;
}

const TENANT_CASES: AuthCase[] = [
  { name: 'no Authorization header', credential: 'none', status: 401, error: 'missing_credentials' },
  { name: 'Bearer nonsense', credential: 'bearer_nonsense', status: 401, error: 'invalid_credentials' },
  { name: 'a Basic credential', credential: 'basic', status: 401, error: 'invalid_credentials' },
  {
    name: 'an unknown well-formed key',
    credential: 'unknown_key',
    status: 401,
    error: 'invalid_credentials',
  },
  { name: 'a revoked key', credential: 'revoked_key', status: 401, error: 'invalid_credentials' },
  {
    name: "a suspended tenant's key",
    credential: 'suspended_tenant_key',
    status: 401,
    error: 'invalid_credentials',
  },
];
const ADMIN_CASES: AuthCase[] = [
  {
    name: 'a standard key on an admin-only operation',
    credential: 'standard_key',
    status: 403,
    error: 'forbidden',
  },
];
const PATH_ID_CASES: AuthCase[] = [
  {
    name: "another tenant's key for an id the first tenant has",
    credential: 'other_tenant_key',
    status: 404,
    error: undefined,
  },
];
// A player's id in a path is the tenant's own name for its player, not an id the service issued: any tenant may name
// it (the player's status, reality-check interval), so the answer need not be 404, only the same as for a name never
// used.
const PLAYER_PATH_CASES: AuthCase[] = [
  {
    name: "another tenant's key for a player the first tenant has",
    credential: 'other_tenant_key',
    status: undefined,
    error: undefined,
  },
];
// A lookup by a query-string id may answer 200 for an id nobody has (an empty list): the same answer is the rule.
const QUERY_ID_CASES: AuthCase[] = [
  {
    name: "another tenant's key for ids the first tenant has, in the query",
    credential: 'other_tenant_key',
    status: undefined,
    error: undefined,
  },
];
const BACKOFFICE_CASES: AuthCase[] = [
  { name: 'no Authorization header', credential: 'none', status: 401, error: 'missing_credentials' },
  // docs/backoffice.md: anything but `Bearer …` counts as no token.
  { name: 'a Basic credential', credential: 'basic', status: 401, error: 'missing_credentials' },
  { name: 'a wrong token', credential: 'wrong_token', status: 401, error: 'invalid_credentials' },
  { name: 'a tenant API key', credential: 'tenant_key', status: 401, error: 'invalid_credentials' },
];

function casesFor(route: ApiRoute): AuthCase[] {
  if (route.surface === 'backoffice') return BACKOFFICE_CASES;
  return [
    ...TENANT_CASES,
    ...(ADMIN_ONLY.has(routeName(route)) ? ADMIN_CASES : []),
    ...(namesPlayer(route)
      ? PLAYER_PATH_CASES
      : route.pathParams.length > 0
        ? PATH_ID_CASES
        : route.queryIds.length > 0
          ? QUERY_ID_CASES
          : []),
  ];
}

/** The routes whose only path value is a player's id (PLAYER_PATH_CASES). */
const namesPlayer = (route: ApiRoute) =>
  route.pathParams.length > 0 && route.pathParams.every((name) => name === 'user_id');

const table = routes
  .filter((route) => route.surface !== 'public')
  .flatMap((route) => casesFor(route).map((authCase) => ({ route, authCase })));

/** The player of tenant A whose data the id look-ups name: limits, a KYC check, a screening and an AML case. */
const USER = 'negative-auth-user';
/** The start of A's play session, the same for both makers that ask for it (a repeat start must match). */
const PLAY_STARTED_AT = t.platform.clock.now().toISOString();

/** The fixtures: the first tenant (A) owns the resources, B is another tenant; a third is suspended. */
interface Fixtures {
  b: TestTenant;
  credentials: Record<Credential, string | undefined>;
  /** Per tenant route with an id in its path, the path values of a resource A has, made through the API. */
  pathIds: Record<string, Record<string, string>>;
  /** Per query-string id name, the value of a resource A has. */
  queryIds: Record<string, string>;
  /** Path values for back-office routes: real ones where a refused request could otherwise change something. */
  backofficeParams: Record<string, string>;
}
let fixtures: Fixtures;

/** How to make, as tenant A, a resource for each tenant route with an id in its path. */
const PATH_RESOURCES: Record<string, (a: TestTenant) => Promise<Record<string, string>>> = {
  // A pending increase: the one kind of limit a DELETE would change.
  'DELETE /v1/limits/:id': async (a) => {
    const set = (amount_cents: number) =>
      t.api(a.apiKey, 'POST', '/v1/limits', {
        user_id: USER,
        limit_type: 'limit_daily',
        amount_cents,
        currency: 'EUR',
        requested_at: t.platform.clock.now().toISOString(),
      });
    expect((await set(10_000)).statusCode).toBe(201);
    const increase = await set(20_000);
    expect(increase.json()).toMatchObject({ status: 'pending' });
    return { id: increase.json<{ limit_id: string }>().limit_id };
  },
  'GET /v1/play-sessions/:session_id': playSession,
  'POST /v1/play-sessions/:session_id/end': playSession,
  'PUT /v1/players/:user_id/reality-check': () => Promise.resolve({ user_id: USER }),
  // USER's time-out and AML hold (makeQueryResources) restrict them: their status is not a stranger's.
  'GET /v1/players/:user_id/status': () => Promise.resolve({ user_id: USER }),
  'POST /v1/players/:user_id/interactions': () => Promise.resolve({ user_id: USER }),
  'POST /v1/players/:user_id/closed': () => Promise.resolve({ user_id: USER }),
  'POST /v1/players/:user_id/erasure-requests': erasedPlayer,
  'GET /v1/players/:user_id/erasure-requests': erasedPlayer,
  'GET /v1/players/:user_id/erasure-requests/:erasure_request_id': erasedPlayer,
  // An interaction of A's with USER, so that USER's safer-gambling standing is not a stranger's.
  'GET /v1/players/:user_id/safer-gambling': async (a) => {
    const recorded = await t.api(a.apiKey, 'POST', `/v1/players/${USER}/interactions`, {
      kind: 'call',
      outcome: 'no_concern',
      occurred_at: t.platform.clock.now().toISOString(),
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    return { user_id: USER };
  },
};

/** A player of A's erased on request (not USER, whose data the other routes read). Idempotent on its id. */
async function erasedPlayer(a: TestTenant): Promise<Record<string, string>> {
  const player = 'negative-auth-erased';
  await t.api(a.apiKey, 'PUT', `/v1/players/${player}/reality-check`, { interval_seconds: 1800 });
  const erased = await t.api(a.apiKey, 'POST', `/v1/players/${player}/erasure-requests`, {
    erasure_request_id: 'negative-auth-dsr',
  });
  expect(erased.statusCode, erased.body).toBeLessThan(300);
  return { user_id: player, erasure_request_id: 'negative-auth-dsr' };
}

/** An open play session of A's player (one session serves both routes: a start is idempotent). */
async function playSession(a: TestTenant): Promise<Record<string, string>> {
  const started = await t.api(a.apiKey, 'POST', '/v1/play-sessions', {
    user_id: USER,
    session_id: 'negative-auth-session',
    started_at: PLAY_STARTED_AT,
  });
  expect(started.statusCode, started.body).toBeLessThan(300);
  return { session_id: 'negative-auth-session' };
}

/** Makes A's KYC check, sanctions screening, AML case and time-out of USER; answers each query-string id's value. */
async function makeQueryResources(a: TestTenant): Promise<Record<string, string>> {
  const kyc = await t.api(a.apiKey, 'POST', '/v1/kyc/start', {
    user_id: USER,
    email: 'player@example.com',
    phone: '+447700900123',
    withdrawal_amount_cents: 5_000_000,
    currency: 'USD',
  });
  expect(kyc.statusCode, kyc.body).toBe(201);
  const kycCheckId = kyc.json<{ kyc_check_id: string }>().kyc_check_id;
  const screen = await t.api(a.apiKey, 'POST', '/v1/sanctions/screen', {
    user_id: USER,
    first_name: 'Jane',
    last_name: 'Negative',
    date_of_birth: '1980-01-01',
    nationality: 'GB',
    email: 'player@example.com',
  });
  expect(screen.statusCode, screen.body).toBe(201);
  // A verified tier and an AML case, so the tier and case look-ups have something of A's to show.
  const review = await t.api(await t.issueKey(a.tenantId, 'admin'), 'POST', '/v1/kyc/manual-review', {
    kyc_check_id: kycCheckId,
    decision: 'approve',
    reason: 'negative-auth fixture',
  });
  expect(review.statusCode, review.body).toBe(200);
  const hold = await t.api(a.apiKey, 'POST', '/v1/aml/screen', {
    user_id: USER,
    withdrawal_id: 'negative-auth-withdrawal',
    amount_cents: 1_500_000,
    currency: 'USD',
    payment_method: 'card',
    destination_country: 'GB',
  });
  expect(hold.json(), hold.body).toMatchObject({ decision: 'hold' });
  // A time-out, so that the time-outs list has something of A's to show.
  const timeOut = await t.api(a.apiKey, 'POST', '/v1/time-outs', { user_id: USER, duration: 'duration_24h' });
  expect(timeOut.statusCode, timeOut.body).toBe(201);
  return { user_id: USER, kyc_check_id: kycCheckId };
}

beforeAll(async () => {
  const a = await t.createTenant({ name: 'Negative Auth A' });
  const b = await t.createTenant({ name: 'Negative Auth B' });
  const suspended = await t.createTenant({ name: 'Negative Auth Suspended' });
  // Generous budgets: the suite sends each key more requests in a minute than the defaults allow.
  for (const tenant of [a, b]) {
    const limits = await t.backoffice('PUT', `/tenants/${tenant.tenantId}/rate-limits`, {
      default_per_minute: 1_000_000,
      exclusions_per_minute: 1_000_000,
      aml_event_per_minute: 1_000_000,
    });
    expect(limits.statusCode).toBe(200);
  }
  const probe = '/v1/exclusions/check?email=player@example.com';

  // Each refused key works once first, so a cached verification cannot outlive the revocation or suspension.
  const revoked = await t.issueKey(a.tenantId, 'standard');
  expect((await t.api(revoked, 'GET', probe)).statusCode).toBe(200);
  expect((await t.backoffice('POST', `/keys/${revoked.slice(0, 20)}/revoke`)).statusCode).toBe(200);
  expect((await t.api(suspended.apiKey, 'GET', probe)).statusCode).toBe(200);
  expect((await t.backoffice('POST', `/tenants/${suspended.tenantId}/suspend`)).statusCode).toBe(200);

  const pathIds: Fixtures['pathIds'] = {};
  for (const route of tenantRoutes.filter((r) => r.pathParams.length > 0)) {
    const make = PATH_RESOURCES[routeName(route)];
    if (make) pathIds[routeName(route)] = await make(a);
  }

  fixtures = {
    b,
    pathIds,
    queryIds: await makeQueryResources(a),
    credentials: {
      none: undefined,
      bearer_nonsense: 'Bearer nonsense',
      basic: `Basic ${Buffer.from('operator:password').toString('base64')}`,
      unknown_key: `Bearer svc_sk_test_${'Z'.repeat(32)}`,
      revoked_key: `Bearer ${revoked}`,
      suspended_tenant_key: `Bearer ${suspended.apiKey}`,
      standard_key: `Bearer ${a.apiKey}`,
      // An admin key, so that only the tenant, never the role, can be what refuses it.
      other_tenant_key: `Bearer ${await t.issueKey(b.tenantId, 'admin')}`,
      tenant_key: `Bearer ${a.apiKey}`,
      wrong_token: `Bearer ${BACKOFFICE_TOKEN}x`,
    },
    backofficeParams: {
      tenant_id: a.tenantId,
      key_prefix: a.apiKey.slice(0, 20),
      currency: 'EUR',
      code: 'GB',
    },
  };
});

/** The statement that digests every table (built once: the tables do not change while the file runs). */
let digestQuery: RawBuilder<{ name: string; digest: string }> | undefined;

/**
 * A digest of every table's rows, less what an authentication failure writes by design (see storedRows): the row
 * count and a sum of row hashes, which needs no sort, so it stays cheap enough to take around every request.
 */
async function tableDigests(): Promise<Record<string, string>> {
  if (!digestQuery) {
    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'security_log'
      order by table_name`.execute(t.db);
    const digest = sql`count(*)::text || ':' || coalesce(sum(hashtext(r::text)::bigint), 0)::text`;
    const digests = tables.rows.map(({ name }) =>
      name === 'audit_log'
        ? sql`select ${name}::text as name, ${digest} as digest from audit_log r where action <> 'auth.failed'`
        : sql`select ${name}::text as name, ${digest} as digest from ${sql.table(name)} r`,
    );
    digestQuery = sql<{ name: string; digest: string }>`${sql.join(digests, sql` union all `)}`;
  }
  const result = await digestQuery.execute(t.db);
  return Object.fromEntries(result.rows.map((row) => [row.name, row.digest]));
}

/** What a request names: path values and query-string values. */
interface Target {
  path: Record<string, string>;
  query: Record<string, string>;
}

/** A's resources where the route names one; any value elsewhere (authentication comes first). */
function ownTarget(route: ApiRoute): Target {
  const known =
    route.surface === 'backoffice' ? fixtures.backofficeParams : fixtures.pathIds[routeName(route)];
  const query =
    route.surface === 'backoffice' ? [] : route.queryIds.filter((name) => name in fixtures.queryIds);
  return {
    path: Object.fromEntries(route.pathParams.map((name) => [name, known?.[name] ?? `unknown_${name}`])),
    query: Object.fromEntries(query.map((name) => [name, fixtures.queryIds[name]!])),
  };
}

/** The same ids with their last character changed: well formed, and never issued to anyone. */
function neverIssued(target: Target): Target {
  const change = (values: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(values).map(([name, id]) => [name, id.slice(0, -1) + (id.endsWith('0') ? '1' : '0')]),
    );
  return { path: change(target.path), query: change(target.query) };
}

/** A valid body for a route with an id in its path and a body, so that the id, not the body, decides the answer. */
const VALID_BODIES: Record<string, object> = {
  'POST /v1/play-sessions/:session_id/end': { ended_at: PLAY_STARTED_AT },
};

function send(route: ApiRoute, target: Target, authorization: string | undefined) {
  const hasBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  const query = new URLSearchParams(target.query).toString();
  return t.inject({
    method: route.method as 'GET',
    url: fillPath(route.url, target.path) + (query ? `?${query}` : ''),
    headers: authorization === undefined ? {} : { authorization },
    ...(hasBody ? { payload: VALID_BODIES[routeName(route)] ?? {} } : {}),
  });
}

/** An answer with the ids it was asked about, and its request id, blanked: what is left must not tell them apart. */
function asSeen(response: LightMyRequestResponse, target: Target) {
  let body = response.body.replace(/req_[0-9a-f]+/g, 'req_…');
  for (const id of [...Object.values(target.path), ...Object.values(target.query)])
    body = body.replaceAll(id, '…');
  return { status: response.statusCode, body };
}

describe('the generated route table', () => {
  it('covers every tenant and back-office route the app registers', () => {
    // Today's counts less a few: a collector that finds nothing, or half, fails here rather than passing empty.
    expect(tenantRoutes.length).toBeGreaterThanOrEqual(20);
    expect(backofficeRoutes.length).toBeGreaterThanOrEqual(45);
    expect(table.length).toBeGreaterThanOrEqual(20 * TENANT_CASES.length + 45 * BACKOFFICE_CASES.length);
    expect(tenantRoutes.map(routeName)).toContain('DELETE /v1/limits/:id');
    // Which operations are admin-only is a decision to review, as taking no key is: the spec names one.
    expect([...ADMIN_ONLY]).toEqual(['POST /v1/kyc/manual-review']);
  });

  it('has a resource of the first tenant for every id a tenant route takes', () => {
    const withPathIds = tenantRoutes.filter((route) => route.pathParams.length > 0);
    expect(withPathIds.length).toBeGreaterThan(0);
    const missing = [
      ...withPathIds.filter((route) => !fixtures.pathIds[routeName(route)]).map(routeName),
      ...tenantRoutes
        .flatMap((route) => route.queryIds.map((name) => `${routeName(route)} ?${name}`))
        .filter((name) => !(name.split('?')[1]! in fixtures.queryIds)),
    ];
    expect(missing, 'add a maker to PATH_RESOURCES or makeQueryResources for each').toEqual([]);
  });

  it('has a table digest that sees a change an accepted request makes', async () => {
    const before = await tableDigests();
    expect(Object.keys(before).length).toBeGreaterThan(10);
    const limits = await t.backoffice('PUT', `/tenants/${fixtures.b.tenantId}/rate-limits`, {
      default_per_minute: 999_999,
      exclusions_per_minute: 999_999,
      aml_event_per_minute: 999_999,
    });
    expect(limits.statusCode).toBe(200);
    expect(await tableDigests()).not.toEqual(before);
  });

  // Taking no key is a decision to review, never a side effect of where a route is registered.
  it('finds exactly the documented public routes, and they answer without a key', async () => {
    expect(publicRoutes.map(routeName).sort()).toEqual([
      // The hosted embeds' endpoints: the session's token in the path is the credential (docs/embeds.md).
      'DELETE /v1/embeds/:token/limits/:limit_id',
      'GET /v1/embeds/:token/limits',
      'GET /v1/health',
      // Readiness, for load balancers (docs/operations.md#health-and-readiness).
      'GET /v1/health/ready',
      'GET /v1/openapi.json',
      'POST /v1/embeds/:token/confirm',
      'POST /v1/embeds/:token/limits',
      'POST /v1/embeds/:token/request',
      'POST /v1/kyc/sandbox-vendor/:token/begin',
      'POST /v1/kyc/sandbox-vendor/:token/submit',
    ]);
    for (const route of publicRoutes) {
      const response = await send(route, ownTarget(route), undefined);
      // None asks for a bearer key; an embed's unknown token is its own 401.
      expect(response.json<{ error?: string }>().error, routeName(route)).not.toBe('missing_credentials');
      if (!route.url.startsWith('/v1/embeds/')) expect(response.statusCode, routeName(route)).not.toBe(401);
    }
  });
});

describe.each(
  routes.filter((route) => route.surface !== 'public').map((route) => [routeName(route), route] as const),
)('%s', (_name, route) => {
  const cases = casesFor(route).map((authCase) => {
    const answer = `${authCase.status ?? ''} ${authCase.error ?? 'as for ids never issued'}`.trim();
    return [`${authCase.name} → ${answer}`, authCase] as const;
  });
  it.each(cases)('%s', async (_title, authCase) => {
    const stateChanging = route.method !== 'GET';
    const before = stateChanging ? await tableDigests() : undefined;
    const target = ownTarget(route);

    if (authCase.credential === 'other_tenant_key') {
      // Answered exactly as ids that do not exist (docs/api.md, Errors): same status, same body.
      const key = fixtures.credentials.other_tenant_key;
      if (route.method === 'GET') {
        // The ids name something for their owner, so that "the same as nothing" says something.
        const owner = fixtures.credentials.standard_key;
        const seen = await send(route, target, owner);
        expect(seen.statusCode, seen.body).toBeLessThan(300);
        expect(asSeen(seen, target)).not.toEqual(
          asSeen(await send(route, neverIssued(target), owner), neverIssued(target)),
        );
      }
      const missing = await send(route, neverIssued(target), key);
      const response = await send(route, target, key);
      if (authCase.status !== undefined) expect(response.statusCode, response.body).toBe(authCase.status);
      expect(asSeen(response, target)).toEqual(asSeen(missing, neverIssued(target)));
      if (response.statusCode >= 400) expectRefused(response, response.statusCode, missing.json().error);
    } else {
      const response = await send(route, target, fixtures.credentials[authCase.credential]);
      expectRefused(response, authCase.status!, authCase.error!);
    }
    if (stateChanging) expect(await tableDigests(), 'tables changed by a refused request').toEqual(before);
  });
});

describe('admin-only operations', () => {
  const others = tenantRoutes.filter((route) => !ADMIN_ONLY.has(routeName(route)));
  it.each(others.map((route) => [routeName(route), route] as const))(
    '%s does not refuse a standard key as forbidden',
    async (_name, route) => {
      // Ids no resource has: the standard key is A's own, so a real id could be acted on.
      const target = neverIssued(ownTarget(route));
      const response = await send(route, target, fixtures.credentials.standard_key);
      expect(response.statusCode, response.body).not.toBe(403);
    },
  );
});
