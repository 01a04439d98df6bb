/**
 * `tsx bench/export.ts [--quick] [--keep-db]`: the data export of a player with a year of activity, on the
 * benchmark's seed (seedVolume's 90 days; --quick: its small scale), through the service over HTTP (PostgreSQL on a
 * fresh database of DATABASE_URL's server, else PGlite). On top of the seed, one player of the first tenant has a
 * heavy player's year: AML events through the API (6 a day for 365 days, evaluated by the service's workers, so rule
 * trips, cases, safer-gambling markers and webhooks follow as they would), deposits (2 a day) and play sessions (one
 * a day), webhooks (2 a day) and audit entries (one a day) written as the seed writes its volume, and through the
 * API limits and their changes, a time-out, KYC, a sanctions screen, withdrawal screens and a self-exclusion with an
 * email. Then, once the AML queue is empty, the
 * back office's export of that player and the contact export of that email are each timed RUNS times (wall clock,
 * request to last byte). Target: under one second. Writes bench/results/export-<time>-<kind>[-quick].json.
 * See docs/performance.md.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { request } from 'undici';
import { openDatabase } from '../src/platform/db/database.js';
import { round, summarise } from './lib/stats.js';
import { postgresServer } from './run/report.js';
import { keepDatabase, log, quick, scale, token } from './run/options.js';
import { createTenants, freshDatabase, startService } from './run/service.js';
import { seedVolume } from './seed.js';

const RUNS = 9;
const TARGET_MS = 1000;
const DAYS = 365;
const DAY_MS = 86_400_000;
const PLAYER = 'year_player';
const EMAIL = 'year.player@bench.example';
const PHONE = '+447700900123';

/** The year's deposits and play sessions of the player, in the shapes the service writes (bench/seed.ts's way). */
async function seedYearOfPlayer(database: { url: string | undefined; dataDir: string }, tenantId: string) {
  const { db, close } = await openDatabase({ url: database.url, dataDir: database.dataDir });
  try {
    await sql`insert into deposits (tenant_id, transaction_id, user_id, amount_cents, currency, committed_at, recorded_at, request_hash)
      select ${tenantId}, 'year-dep-' || g, ${PLAYER}, 2000 + (g * 7919) % 50000, 'USD', c.at, c.at, 'seed'
      from generate_series(0, ${2 * DAYS - 1}) g
      cross join lateral (select now() - make_interval(hours => 12 * g + 1)) as c(at)`.execute(db);
    await sql`insert into play_sessions (play_session_id, tenant_id, session_id, user_id, started_at, created_at, allowed,
        reason, ends_at, limit_type, reality_check_interval_seconds, ended_at, counted_until, limit_reached_at)
      select 'pls_year_' || g, ${tenantId}, 'year-session-' || g, ${PLAYER}, c.at, c.at, true, null, null, null,
             null, c.at + interval '95 minutes', c.at + interval '95 minutes', null
      from generate_series(1, ${DAYS}) g
      cross join lateral (select now() - make_interval(days => g, hours => 3)) as c(at)`.execute(db);
    // Its webhooks (two a day, delivered) and audit entries (one a day), beyond those its API calls write.
    await sql`insert into events (event_id, tenant_id, event, payload, created_at, delivery_status, attempt_count,
        next_attempt_at, delivered_at)
      select 'evt_year_' || g, ${tenantId}, 'limit.breach_attempt',
             jsonb_build_object('event', 'limit.breach_attempt', 'event_id', 'evt_year_' || g,
               'timestamp', c.at, 'data', jsonb_build_object('user_id', ${PLAYER}::text, 'limit_type', 'limit_daily',
               'amount_cents', 5000 + g % 9000, 'currency', 'USD'))::text,
             c.at, 'delivered', 1, null, c.at + interval '1 second'
      from generate_series(1, ${2 * DAYS}) g
      cross join lateral (select now() - make_interval(hours => 12 * g)) as c(at)`.execute(db);
    await sql`insert into audit_log (tenant_id, occurred_at, actor, action, request_id, details)
      select ${tenantId}, c.at, 'tenant', 'limit.set', 'req_year_' || g,
             jsonb_build_object('user_id', ${PLAYER}::text, 'limit_type', 'limit_daily', 'amount_cents', 30000 + g)
      from generate_series(1, ${DAYS}) g
      cross join lateral (select now() - make_interval(days => g)) as c(at)`.execute(db);
    await sql`analyze`.execute(db);
  } finally {
    await close();
  }
}

async function api(baseUrl: string, apiKey: string, method: 'POST' | 'PUT', url: string, body: object) {
  const response = await request(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${text}`);
}

/** What a tenant tells the service about the player over a year, through the API as it would. */
async function playerThroughApi(baseUrl: string, apiKey: string) {
  const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString();
  const call = (url: string, body: object, method: 'POST' | 'PUT' = 'POST') =>
    api(baseUrl, apiKey, method, url, { user_id: PLAYER, ...body });
  for (const [limit_type, amount_cents] of [
    ['limit_daily', 50_000],
    ['limit_weekly', 200_000],
    ['limit_monthly', 600_000],
    ['limit_daily', 30_000],
  ] as const)
    await call('/v1/limits', { limit_type, amount_cents, currency: 'USD', requested_at: at(0) });
  await call('/v1/kyc/start', {
    email: EMAIL,
    phone: PHONE,
    withdrawal_amount_cents: 250_000,
    currency: 'USD',
  });
  await call('/v1/sanctions/screen', {
    first_name: 'Year',
    last_name: 'Player',
    date_of_birth: '1984-05-02',
    nationality: 'GB',
    email: EMAIL,
  });
  for (let i = 0; i < 12; i++)
    await call('/v1/aml/screen', {
      withdrawal_id: `year-wd-${i}`,
      amount_cents: 150_000 + i * 10_000,
      currency: 'USD',
      payment_method: 'bank_transfer',
      destination_country: 'GB',
    });
  // A year's play: six events a day, in event time, a larger deposit now and then (for the rules to find).
  const types = ['wager', 'wager', 'settlement', 'deposit', 'login', 'wager'] as const;
  const events = Array.from({ length: 6 * DAYS }, (_, i) => i);
  const send = async (i: number) => {
    const type = types[i % types.length]!;
    const large = type === 'deposit' && i % 60 === 3;
    await call('/v1/aml/event', {
      event_type: type,
      transaction_id: `year-aml-${i}`,
      amount_cents: type === 'login' ? 0 : large ? 1_200_000 : 1_000 + ((i * 6151) % 40_000),
      currency: 'USD',
      payment_method: 'card',
      metadata: {
        ip_country: 'GB',
        session_id: `year-s${Math.floor(i / 6)}`,
        payment_method_fingerprint: 'card_year',
      },
      occurred_at: at(DAYS - i / 6 - 0.01),
    });
  };
  for (let from = 0; from < events.length; from += 8)
    await Promise.all(events.slice(from, from + 8).map(send));
  await call('/v1/time-outs', { duration: 'duration_24h', reason: 'self_initiated', initiated_at: at(0) });
  await call('/v1/exclusions', { duration: 'duration_6m', email: EMAIL });
}

/** Waits until the AML workers have evaluated every queued event (the metric the dashboard reads). */
async function amlQueueDrained(baseUrl: string) {
  for (let waited = 0; waited < 1800; waited += 2) {
    const response = await request(`${baseUrl}/backoffice/v1/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await response.body.text();
    const waiting = [...text.matchAll(/^compliance_aml_evaluation_waiting(?:\{[^}]*\})? (\d+)/gm)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
    if (waiting === 0) return waited;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new Error('the AML queue did not drain in 30 minutes');
}

/** One export, timed from the request to its last byte. */
async function timed(baseUrl: string, url: string, body: object) {
  const started = performance.now();
  const response = await request(`${baseUrl}/backoffice/v1${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  const ms = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${text.slice(0, 500)}`);
  const document = JSON.parse(text) as { data: { table: string; rows: unknown[] }[] };
  const rows = Object.fromEntries(document.data.map((d) => [d.table, d.rows.length]));
  return { ms, bytes: text.length, rows };
}

async function measure(name: string, run: () => ReturnType<typeof timed>) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run());
  const latency = summarise(runs.map((r) => r.ms));
  const result = {
    export: name,
    runs: RUNS,
    median_ms: latency.p50,
    max_ms: latency.max,
    first_ms: round(runs[0]!.ms),
    mb: round(runs[0]!.bytes / 1024 ** 2, 2),
    rows: runs[0]!.rows,
    verdict: latency.p50 < TARGET_MS ? 'ok' : `FAIL (median >= ${TARGET_MS} ms)`,
  };
  log(
    `${name}: median ${result.median_ms} ms, max ${result.max_ms} ms, first ${result.first_ms} ms, ${result.mb} MB`,
  );
  return result;
}

async function main() {
  process.env.COMPLIANCE_SECRETS_KEY ??= randomBytes(32).toString('base64');
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const database = await freshDatabase(kind);
  let service = await startService(database);
  const results = [];
  const seconds: Record<string, number> = {};
  const since = (started: number) => round((performance.now() - started) / 1000, 1);
  try {
    const tenants = await createTenants(service, scale.tenants);
    const tenant = tenants[0]!;
    await service.stop();
    log(`== ${kind}: seeding ${JSON.stringify(scale)} and a year of ${PLAYER}`);
    let started = performance.now();
    await seedVolume(
      database,
      tenants.map((t) => t.tenant_id),
      scale,
      log,
    );
    await seedYearOfPlayer(database, tenant.tenant_id);
    seconds.seed = since(started);
    service = await startService(database);
    started = performance.now();
    await playerThroughApi(service.baseUrl, tenant.api_key);
    seconds.api = since(started);
    started = performance.now();
    await amlQueueDrained(service.baseUrl);
    seconds.aml_queue = since(started);
    log(`== seeded in ${seconds.seed} s, API ${seconds.api} s, AML queue drained in ${seconds.aml_queue} s`);
    results.push(
      await measure('player', () =>
        timed(service.baseUrl, `/tenants/${tenant.tenant_id}/players/${PLAYER}/export`, {}),
      ),
      await measure('contact', () => timed(service.baseUrl, '/contacts/export', { email: EMAIL })),
    );
  } finally {
    await service.stop();
    if (!keepDatabase) await database.drop();
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join('bench', 'results', `export-${stamp}-${kind}${quick ? '-quick' : ''}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memory_gb: round(os.totalmem() / 1024 ** 3, 1),
  };
  fs.writeFileSync(
    file,
    JSON.stringify({ kind, scale, machine, postgres: await postgresServer(), seconds, results }, null, 2) +
      '\n',
  );
  log(`results: ${file}`);
  process.exitCode = results.every((r) => r.verdict === 'ok') ? 0 : 1;
}

await main();
