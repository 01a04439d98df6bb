/**
 * `nice -n 19 npx tsx bench/retention.ts [--rows 100000] [--seconds 15] [--concurrency 4] [--rate 100]`: the
 * retention job's batches beside the event path. Starts a service with its worker loop on the system clock (PGlite,
 * or a fresh database of DATABASE_URL's PostgreSQL server), seeds `--rows` due rows to delete (released deposit
 * holds older than their 30 days) and as many to pseudonymise (deposits of players whose account closed six years
 * ago), then posts AML events (POST /v1/aml/event, `--rate` a second from `--concurrency` clients, over 20,000
 * players) in three phases: without the job, while the job applies itself to every due row (it is made due at
 * once), and without it again. Prints each phase's event latencies (p50, p95, p99, max in ms) and the job's time and
 * rows per second. See docs/performance.md.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { RETENTION_JOB } from '../src/platform/data-lifecycle.js';
import { TestService } from '../test/helpers/test-service.js';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROWS = option('rows', 100_000);
const SECONDS = option('seconds', 15);
const CONCURRENCY = option('concurrency', 4);
/** Events a second in all: a steady event path, well within what the machine serves (its evaluation keeps up). */
const RATE = option('rate', 100);

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

const t = await TestService.start({ testClock: false, workers: true });
// A process with the API and the worker loop, as `processRole: all` runs them (the loop runs every due job).
t.service.workers.start();
try {
  const tenant = await t.createTenant({});
  // The benchmark's own tenant is not rate limited: the measure is the database's, not the limiter's.
  const limits = await t.backoffice('PUT', `/tenants/${tenant.tenantId}/rate-limits`, {
    aml_event_per_minute: 1_000_000,
  });
  if (limits.statusCode !== 200) throw new Error(`rate limits: ${limits.body}`);
  const releasedAt = new Date(Date.now() - 40 * 86_400_000);
  await sql`
    insert into limit_releases (tenant_id, transaction_id, user_id, amount_cents, currency, released_at, request_hash)
    select ${tenant.tenantId}, 'bench-release-' || i, 'bench-user-' || (i % 5000), 1000, 'USD',
      ${releasedAt.toISOString()}::timestamptz, 'h'
    from generate_series(1, ${ROWS}) as i`.execute(t.db);
  // As many deposits of players whose account closed six years ago: due to be pseudonymised.
  const closedAt = new Date(Date.now() - 6 * 366 * 86_400_000);
  await sql`
    insert into player_closures (tenant_id, user_id, closed_at, recorded_at, request_hash)
    select ${tenant.tenantId}, 'bench-closed-' || i, ${closedAt.toISOString()}::timestamptz,
      ${closedAt.toISOString()}::timestamptz, 'h'
    from generate_series(0, 4999) as i`.execute(t.db);
  await sql`
    insert into deposits (tenant_id, transaction_id, user_id, amount_cents, currency, committed_at, recorded_at,
      request_hash)
    select ${tenant.tenantId}, 'bench-deposit-' || i, 'bench-closed-' || (i % 5000), 1000, 'USD',
      ${closedAt.toISOString()}::timestamptz, ${closedAt.toISOString()}::timestamptz, 'h'
    from generate_series(1, ${ROWS}) as i`.execute(t.db);
  const due = async () =>
    Number(
      (
        await sql<{ n: number }>`select (select count(*) from limit_releases)
          + (select count(*) from deposits where user_id like 'bench-closed-%') as n`.execute(t.db)
      ).rows[0]!.n,
    );

  let sequence = 0;
  /** Posts events `CONCURRENCY` at a time until `until()` says stop; answers the latencies in ms. */
  async function events(until: () => Promise<boolean> | boolean): Promise<number[]> {
    const latencies: number[] = [];
    let stop = false;
    const poster = async () => {
      while (!stop) {
        const next = performance.now() + (1000 * CONCURRENCY) / RATE;
        const body = {
          user_id: `player-${sequence % 20_000}`,
          event_type: 'deposit',
          transaction_id: `tx-${randomBytes(6).toString('hex')}-${sequence++}`,
          amount_cents: 1000 + (sequence % 5000),
          currency: 'USD',
          occurred_at: new Date().toISOString(),
        };
        const started = performance.now();
        const response = await t.api(tenant.apiKey, 'POST', '/v1/aml/event', body);
        latencies.push(performance.now() - started);
        if (response.statusCode >= 300)
          throw new Error(`event refused: ${response.statusCode} ${response.body}`);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
      }
    };
    const posters = Array.from({ length: CONCURRENCY }, poster);
    while (!(await until())) await new Promise((resolve) => setTimeout(resolve, 250));
    stop = true;
    await Promise.all(posters);
    return latencies.sort((a, b) => a - b);
  }

  const forSeconds = (seconds: number) => {
    const end = performance.now() + seconds * 1000;
    return () => performance.now() >= end;
  };
  const summary = (phase: string, latencies: number[], extra: Record<string, unknown> = {}) => ({
    phase,
    events: latencies.length,
    p50_ms: Math.round(percentile(latencies, 50) * 10) / 10,
    p95_ms: Math.round(percentile(latencies, 95) * 10) / 10,
    p99_ms: Math.round(percentile(latencies, 99) * 10) / 10,
    max_ms: Math.round(latencies.at(-1)! * 10) / 10,
    ...extra,
  });

  const results = [];
  console.error(`seeded ${2 * ROWS} due rows; posting events`);
  results.push(summary('without the job', await events(forSeconds(SECONDS))));

  await t.db
    .updateTable('scheduled_jobs')
    .set({ due_at: new Date() })
    .where('kind', '=', RETENTION_JOB)
    .execute();
  console.error('the job is due');
  const jobStarted = performance.now();
  const during = await events(async () => (await due()) === 0);
  const jobSeconds = (performance.now() - jobStarted) / 1000;
  results.push(
    summary('while the job deletes', during, {
      rows: 2 * ROWS,
      job_seconds: Math.round(jobSeconds * 10) / 10,
      rows_per_second: Math.round((2 * ROWS) / jobSeconds),
    }),
  );

  results.push(summary('without the job, after', await events(forSeconds(SECONDS))));
  console.log(
    JSON.stringify(
      {
        database: process.env.DATABASE_URL ? 'postgresql' : 'pglite',
        concurrency: CONCURRENCY,
        rate: RATE,
        results,
      },
      null,
      2,
    ),
  );
} finally {
  await t.close();
}
