/**
 * `npm run bench [-- --quick] [-- --only aml_event,geo_check]`: starts the service (PostgreSQL when
 * DATABASE_URL is set, else embedded PGlite), seeds it, drives each hot path from a separate load-generator
 * process at fixed arrival rates and closed-loop, compares with bare Fastify, and prints a table and a JSON file
 * under bench/results/. See docs/performance.md.
 */
import { fork, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { createTestDatabase } from '../test/helpers/test-database.js';
import { openDatabase } from '../src/platform/db/database.js';
import type { LoadResult, LoadSpec } from './loadgen.js';
import { childPids, postgresPids, processRole, ProcWatcher } from './lib/proc.js';
import { summarise } from './lib/stats.js';
import type { BenchContext, ScenarioName } from './scenarios.js';
import { FULL_SCALE, QUICK_SCALE, seedVolume } from './seed.js';
import { ServiceProcess } from './service-process.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const keepDatabase = args.includes('--keep-db');
/** `--cpu-prof`: every service process writes a V8 CPU profile under bench/profiles/ when it stops. */
const cpuProfile = args.includes('--cpu-prof');
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const scale = quick ? QUICK_SCALE : FULL_SCALE;
const runId = randomBytes(4).toString('hex');
/**
 * `--timeline`: every measured request's send time and latency, and every service process's garbage collections
 * (--trace-gc), are written under bench/profiles/timeline-<run>/, for `tsx bench/timeline.ts` to line up.
 */
const timelineDir = args.includes('--timeline')
  ? path.join('bench', 'profiles', `timeline-${runId}`)
  : undefined;
const token = `bench-${randomBytes(16).toString('hex')}`;
const log = (line: string) => console.log(line);

interface Row {
  name: string;
  scenario: ScenarioName;
  database: 'postgres' | 'pglite';
  rate: number;
  seconds: number;
  /** p99 target in ms; other targets are checked in code. */
  p99Target: number;
  minRatio?: number;
}

/** The figures. Quick mode keeps the rates but shortens each phase. */
const ROWS: Row[] = [
  {
    name: 'POST /v1/aml/event',
    scenario: 'aml_event',
    database: 'postgres',
    rate: 3000,
    seconds: 30,
    p99Target: 15,
    minRatio: 0.35,
  },
  {
    name: 'GET /v1/exclusions/check',
    scenario: 'exclusions_check',
    database: 'postgres',
    rate: 3000,
    seconds: 20,
    p99Target: 10,
    minRatio: 0.3,
  },
  {
    name: 'POST /v1/limits/check',
    scenario: 'limits_check',
    database: 'postgres',
    rate: 2000,
    seconds: 20,
    p99Target: 15,
  },
  {
    name: 'POST /v1/geo/check (cache hits)',
    scenario: 'geo_check',
    database: 'postgres',
    rate: 3000,
    seconds: 20,
    p99Target: 10,
  },
  {
    name: 'POST /v1/aml/screen',
    scenario: 'aml_screen',
    database: 'postgres',
    rate: 1000,
    seconds: 20,
    p99Target: 25,
  },
  {
    name: 'POST /v1/aml/event (PGlite)',
    scenario: 'aml_event',
    database: 'pglite',
    rate: 1000,
    seconds: 30,
    p99Target: 25,
  },
];
const ASYNC = { rate: 2000, seconds: quick ? 10 : 60, p99TargetSeconds: 5 };
const RSS_LIMIT_MB = 350;
/** `--phase-seconds=N`: open-loop phases of at most N seconds (quick runs long enough to show a tail). */
const phaseCap = Number(args.find((a) => a.startsWith('--phase-seconds='))?.slice('--phase-seconds='.length));
const phaseSeconds = (seconds: number) => Math.min(seconds, phaseCap || (quick ? 5 : seconds));
const closedSeconds = quick ? 3 : 10;
const warmUpSeconds = quick ? 2 : 5;

let measuredPhases = 0;

interface MeasuredServer {
  baseUrl: string;
  /** Every process of the server. */
  pids: () => number[];
  /** The processes that answer requests. */
  apiPids: () => number[];
}

/** A load generator in its own process, running one phase at a time; a path's phases share it. */
class LoadGenerator {
  private readonly child = fork(path.join(import.meta.dirname, 'loadgen.ts'), {
    execArgv: ['--import', 'tsx'],
  });

  run(spec: LoadSpec): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) =>
        reject(new Error(`load generator exited with ${code} before reporting`));
      this.child.once('exit', exited);
      this.child.once('message', (result) => {
        this.child.off('exit', exited);
        resolve(result as LoadResult);
      });
      this.child.send(spec);
    });
  }

  /** A measured phase: the generator's result with the server's and PostgreSQL's CPU and memory meanwhile. */
  async measure(service: MeasuredServer, spec: Omit<LoadSpec, 'baseUrl'>) {
    const watcher = new ProcWatcher(service.pids, service.apiPids);
    const database = new ProcWatcher(postgresPids);
    const timelineFile =
      timelineDir &&
      path.join(timelineDir, `${++measuredPhases}-${spec.scenario}-${spec.mode}-${spec.rate ?? 'max'}.txt`);
    const result = await this.run({ ...spec, baseUrl: service.baseUrl, timelineFile });
    return { result, server: watcher.stop(), postgres: database.stop() };
  }

  close(): void {
    this.child.disconnect();
  }
}

/** A fresh database: a new PostgreSQL database on the server of DATABASE_URL, or a PGlite directory. */
async function freshDatabase(kind: 'postgres' | 'pglite') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compliance-bench-'));
  const server =
    kind === 'postgres' ? await createTestDatabase('cs_bench') : { url: undefined, drop: async () => {} };
  return {
    url: server.url,
    dataDir,
    drop: async () => {
      await server.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startService(database: { url: string | undefined; dataDir: string }) {
  const service = await ServiceProcess.start(
    {
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      COMPLIANCE_BACKOFFICE_TOKEN: token,
      LOG_LEVEL: 'info',
    },
    [
      ...(cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${path.join('bench', 'profiles')}`] : []),
      ...(timelineDir ? ['--trace-gc'] : []),
    ],
    timelineDir && path.join(timelineDir, 'gc.log'),
  );
  // Supervised (PostgreSQL): the children started as API processes; embedded PGlite: the one process.
  const apiPids = () => {
    const children = childPids(service.pid);
    return children.length === 0 ? [service.pid] : children.filter((pid) => processRole(pid) === 'api');
  };
  return Object.assign(service, { pids: () => [service.pid, ...childPids(service.pid)], apiPids });
}

/** Tenants through the back office, with rate limits above the offered loads, and the rates of their currencies. */
async function createTenants(service: ServiceProcess, count: number) {
  await service.backoffice(token, 'PUT', '/fx-rates/EUR', { usd_per_unit: 1.08 });
  await service.backoffice(token, 'PUT', '/fx-rates/GBP', { usd_per_unit: 1.27 });
  const tenants: BenchContext['tenants'] = [];
  for (let i = 0; i < count; i++) {
    const created = await service.backoffice(token, 'POST', '/tenants', {
      name: `Bench ${i + 1}`,
      environment: 'sandbox',
    });
    const tenantId = created.tenant_id as string;
    await service.backoffice(token, 'PUT', `/tenants/${tenantId}/rate-limits`, {
      default_per_minute: 1_000_000,
      exclusions_per_minute: 1_000_000,
      aml_event_per_minute: 1_000_000,
    });
    tenants.push({ tenant_id: tenantId, api_key: created.api_key as string });
  }
  return tenants;
}

/** Addresses of the sandbox resolver's table, resolved once so the measured phase reads the cache. */
const GEO_PREFIXES = [
  '203.0.113',
  '200.160.5',
  '198.51.100',
  '39.32.5',
  '81.2.69',
  '1.1.1',
  '78.193.5',
  '46.114.5',
  '83.46.5',
];
async function warmGeo(service: ServiceProcess, context: BenchContext) {
  context.geoIps = GEO_PREFIXES.flatMap((prefix) =>
    Array.from({ length: 20 }, (_, i) => `${prefix}.${i + 1}`),
  );
  const generator = new LoadGenerator();
  await generator.run({
    baseUrl: service.baseUrl,
    scenario: 'geo_check',
    context: { ...context, geoIps: context.geoIps },
    mode: 'closed',
    durationSeconds: 2,
    connections: 8,
    seed: 1,
    expectStatus: [200],
  });
  generator.close();
}

async function preparedService(kind: 'postgres' | 'pglite', volume: boolean) {
  const database = await freshDatabase(kind);
  log(`== ${kind}: starting the service`);
  let service = await startService(database);
  const tenants = await createTenants(service, scale.tenants);
  const context: BenchContext = {
    runId,
    tenants,
    usersPerTenant: scale.usersPerTenant,
    exclusions: scale.exclusions,
    geoIps: [],
  };
  if (volume) {
    await service.stop();
    log(`== ${kind}: seeding ${JSON.stringify(scale)}`);
    await seedVolume(
      database,
      tenants.map((t) => t.tenant_id),
      scale,
      log,
    );
    service = await startService(database);
  }
  await warmGeo(service, context);
  return { database, service, context };
}

interface Reported {
  name: string;
  mode: 'open' | 'closed';
  database: string;
  rate: number | null;
  result: LoadResult;
  server: { cpuCores: number; maxRssMb: number; waitMsPerSecond: number };
  postgres: { cpuCores: number };
  ratio?: number;
  verdict: string;
}

async function main() {
  if (!fs.existsSync('dist/src/main.js'))
    throw new Error('Build first: npm run build (npm run bench does it)');
  // One key for every service process of the run (they inherit the environment) and for the seed's contact hashes.
  process.env.COMPLIANCE_SECRETS_KEY ??= randomBytes(32).toString('base64');
  if (timelineDir) fs.mkdirSync(timelineDir, { recursive: true });
  const primary: 'postgres' | 'pglite' = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const reported: Reported[] = [];
  const checks: Array<{ what: string; ok: boolean; detail: string }> = [];

  // The ceiling: bare Fastify with the same parsing and validation, closed loop.
  const bare = fork(path.join(import.meta.dirname, 'bare-server.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: 'ignore',
  });
  const barePort = await new Promise<number>((resolve, reject) => {
    bare.once('message', (m) => resolve((m as { port: number }).port));
    bare.once('exit', (code) =>
      reject(new Error(`the bare Fastify server exited (${code}) before listening`)),
    );
  });
  const bareService = {
    baseUrl: `http://127.0.0.1:${barePort}`,
    pids: () => [bare.pid!],
    apiPids: () => [bare.pid!],
  };
  const bareContext: BenchContext = {
    runId,
    tenants: [{ tenant_id: 'bare', api_key: 'bare' }],
    usersPerTenant: 1000,
    exclusions: 1,
    geoIps: [],
  };
  log('== bare Fastify: open loop at 3000/s (the floor of tail latency here), then closed loop');
  const bareGenerator = new LoadGenerator();
  const bareSpec = {
    scenario: 'aml_event',
    context: bareContext,
    seed: 7,
    expectStatus: [202],
  } as const;
  await bareGenerator.run({
    ...bareSpec,
    baseUrl: bareService.baseUrl,
    mode: 'open',
    rate: 3000,
    durationSeconds: warmUpSeconds,
    connections: 64,
  });
  const bareOpen = await bareGenerator.measure(bareService, {
    ...bareSpec,
    mode: 'open',
    rate: 3000,
    durationSeconds: phaseSeconds(20),
    connections: 64,
  });
  const bareRun = await bareGenerator.measure(bareService, {
    ...bareSpec,
    mode: 'closed',
    durationSeconds: closedSeconds,
    connections: 32,
  });
  bareGenerator.close();
  bare.kill('SIGTERM');
  reported.push({
    name: 'bare Fastify (same parsing and validation)',
    mode: 'open',
    database: '-',
    rate: 3000,
    ...bareOpen,
    verdict: '',
  });
  const bareMax = bareRun.result.throughput;
  reported.push({
    name: 'bare Fastify (same parsing and validation)',
    mode: 'closed',
    database: '-',
    rate: null,
    ...bareRun,
    ratio: 1,
    verdict: '',
  });

  const rows = ROWS.filter((row) => !only || only.includes(row.scenario));
  for (const kind of [primary, ...(primary === 'postgres' ? (['pglite'] as const) : [])]) {
    const kindRows = rows.filter((row) =>
      kind === 'pglite' ? row.database === 'pglite' || primary === 'pglite' : row.database === 'postgres',
    );
    if (kindRows.length === 0) continue;
    const volume = kindRows.some((row) => row.database === 'postgres' || primary === 'pglite');
    const { database, service, context } = await preparedService(kind, volume);
    try {
      for (const row of kindRows) {
        if (
          kind === 'pglite' &&
          primary === 'pglite' &&
          row.database === 'postgres' &&
          row.scenario === 'aml_event'
        )
          continue;
        log(
          `== ${row.name} on ${kind}: ${row.rate}/s open loop for ${phaseSeconds(row.seconds)} s, then closed loop`,
        );
        const expectStatus =
          row.scenario === 'aml_event' ? [202] : row.scenario === 'aml_screen' ? [200, 201] : [200];
        // Each path is measured on its own: the evaluation of earlier phases' AML events must not run beside it.
        if (database.url) await evaluationDrained(database.url);
        // Unmeasured warm-up at the offered rate, in the same generator process as the measured phases: the API
        // processes and the generator itself have compiled their hot code before anything is counted.
        const generator = new LoadGenerator();
        const spec = { scenario: row.scenario, context, expectStatus, connections: 64 };
        await generator.run({
          ...spec,
          baseUrl: service.baseUrl,
          mode: 'open',
          rate: row.rate,
          durationSeconds: warmUpSeconds,
          seed: 3,
        });
        const open = await generator.measure(service, {
          ...spec,
          mode: 'open',
          rate: row.rate,
          durationSeconds: phaseSeconds(row.seconds),
          seed: 11,
        });
        const failures: string[] = [];
        if (open.result.latency.p99 > row.p99Target)
          failures.push(`p99 ${open.result.latency.p99} > ${row.p99Target} ms`);
        if (open.result.errors > 0) failures.push(`${open.result.errors} errors (${open.result.firstError})`);
        if (open.server.maxRssMb > RSS_LIMIT_MB)
          failures.push(`RSS ${open.server.maxRssMb} MB > ${RSS_LIMIT_MB}`);
        reported.push({
          name: row.name,
          mode: 'open',
          database: kind,
          rate: row.rate,
          ...open,
          verdict: failures.length ? `FAIL: ${failures.join('; ')}` : `ok (p99 <= ${row.p99Target} ms)`,
        });
        const closed = await generator.measure(service, {
          ...spec,
          mode: 'closed',
          durationSeconds: closedSeconds,
          connections: 32,
          seed: 13,
        });
        generator.close();
        const ratio = Math.round((closed.result.throughput / bareMax) * 100) / 100;
        const ratioVerdict =
          row.minRatio === undefined
            ? ''
            : ratio >= row.minRatio
              ? `ok (>= ${row.minRatio} x bare)`
              : `FAIL: ${ratio} < ${row.minRatio} x bare`;
        reported.push({
          name: row.name,
          mode: 'closed',
          database: kind,
          rate: null,
          ...closed,
          ratio,
          verdict: ratioVerdict,
        });
      }
      if (kind === 'postgres' && (!only || only.includes('aml_async'))) {
        log(
          `== async AML rules: ${ASYNC.rate} events/s for ${ASYNC.seconds} s, then until the backlog drains`,
        );
        const evaluationLag = new EvaluationLag(database.url!);
        const generator = new LoadGenerator();
        const load = await generator.measure(service, {
          scenario: 'aml_event',
          context,
          mode: 'open',
          rate: ASYNC.rate,
          durationSeconds: ASYNC.seconds,
          connections: 64,
          seed: 17,
          expectStatus: [202],
        });
        generator.close();
        const lag = await evaluationLag.finish();
        // The largest wait bounds every event's, so it is held to the p99 figure.
        const ok = lag.drained && lag.maxSeconds <= ASYNC.p99TargetSeconds;
        reported.push({
          name: 'async AML rules (ack to evaluated)',
          mode: 'open',
          database: kind,
          rate: ASYNC.rate,
          ...load,
          verdict: `${ok ? 'ok' : 'FAIL'}: oldest queued event p99 ${lag.p99Seconds} s, max ${lag.maxSeconds} s, ${lag.drained ? 'backlog drained' : 'backlog NOT drained'}`,
        });
        checks.push({ what: 'async AML wait <= 5 s (largest) and drained', ok, detail: JSON.stringify(lag) });
      }
    } finally {
      await service.stop();
    }
    // Every acknowledged event is in the database (warm-up events are stored too, but were not counted).
    const acked = reported.filter((r) => r.database === kind).flatMap((r) => r.result.acknowledged ?? []);
    if (acked.length > 0) {
      const stored = await countStored(database, acked);
      checks.push({
        what: `every acknowledged AML event stored (${kind})`,
        ok: stored === acked.length,
        detail: `${acked.length} acknowledged, ${stored} of them stored`,
      });
    }
    if (keepDatabase) log(`kept the ${kind} database: ${database.url ?? database.dataDir}`);
    else await database.drop();
  }

  let sanctions: SanctionsBench | undefined;
  if ((!only || only.includes('sanctions')) && !fs.existsSync(SANCTIONS_LISTS_DIR)) {
    // A fresh clone: the matcher's figures are for the whole published lists, which live beside the repository.
    log(`== sanctions matcher: skipped, the full lists are not at ${SANCTIONS_LISTS_DIR}`);
  } else if (!only || only.includes('sanctions')) {
    log('== sanctions matcher over the shipped lists (one core)');
    sanctions = await sanctionsBench();
    for (const r of sanctions?.results ?? []) {
      checks.push({
        what: `sanctions ${r.measure} < ${r.target} ${r.unit}`,
        ok: r.value < r.target,
        detail: `${Math.round(r.value * 1000) / 1000} ${r.unit}`,
      });
    }
    if (!sanctions) checks.push({ what: 'sanctions matcher benchmark ran', ok: false, detail: 'see above' });
  }

  printTable(reported, checks);
  const file = writeResults(reported, checks, primary, bareMax, sanctions, await postgresServer());
  log(`\nresults: ${file}`);
  const failed = reported.some((r) => r.verdict.startsWith('FAIL')) || checks.some((c) => !c.ok);
  process.exitCode = failed ? 1 : 0;
}

interface SanctionsBench {
  index: Record<string, number>;
  results: Array<{ measure: string; value: number; unit: string; target: number }>;
}

/**
 * The production sanctions matcher over the full shipped lists (issue 6's figures), on one core when taskset is
 * there: index build time, index memory, and one screening's matching latency.
 */
const SANCTIONS_LISTS_DIR =
  process.env.SANCTIONS_DATA_DIR ?? fileURLToPath(new URL('../../shared/data/sanctions', import.meta.url));

async function sanctionsBench(): Promise<SanctionsBench | undefined> {
  const script = ['--expose-gc', '--import', 'tsx', 'scripts/bench-sanctions.ts', SANCTIONS_LISTS_DIR];
  const oneCore = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  const [command, commandArgs] = oneCore
    ? ['taskset', ['-c', '0', process.execPath, ...script]]
    : [process.execPath, script];
  const run = spawnSync(command, commandArgs as string[], { encoding: 'utf8' });
  const line = run.stdout.split('\n').find((l) => l.startsWith('SANCTIONS_BENCH '));
  if (!line) {
    log(`sanctions matcher benchmark failed:\n${run.stdout}${run.stderr}`);
    return undefined;
  }
  return JSON.parse(line.slice('SANCTIONS_BENCH '.length)) as SanctionsBench;
}

/** The server of DATABASE_URL, for the results' machine description: its version and the settings that matter here. */
async function postgresServer(): Promise<Record<string, string> | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; setting: string }>(
      `select name, current_setting(name) as setting from pg_settings
       where name in ('server_version', 'shared_buffers', 'max_wal_size', 'synchronous_commit', 'fsync', 'autovacuum')`,
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.setting]));
  } finally {
    await client.end();
  }
}

async function countStored(
  database: { url: string | undefined; dataDir: string },
  transactionIds: string[],
): Promise<number> {
  const { db, close } = await openDatabase({ url: database.url, dataDir: database.dataDir });
  try {
    let stored = 0;
    for (let i = 0; i < transactionIds.length; i += 10_000) {
      const chunk = transactionIds.slice(i, i + 10_000);
      const row = await sql<{ n: number }>`select count(*)::int as n from aml_events
        where transaction_id = any(${chunk}::text[])`.execute(db);
      stored += row.rows[0]!.n;
    }
    return stored;
  } finally {
    await close();
  }
}

/** Waits until the AML evaluation queue is empty (at most three minutes); false when it did not drain. */
async function evaluationDrained(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      const { rows } = await client.query('select count(*)::int as n from aml_evaluation_queue');
      if (rows[0].n === 0) return true;
      await new Promise((r) => setTimeout(r, 500));
    }
    return false;
  } finally {
    await client.end();
  }
}

/**
 * How long events wait between acknowledgement and evaluation, measured from outside: every 250 ms, the age of
 * the oldest event still in the evaluation queue (evaluated events leave it), from the start of the load until the
 * queue has drained (three minutes after the load at most). Every event's wait is at most the largest age seen,
 * give or take one sampling interval, so `max` bounds them all.
 */
class EvaluationLag {
  private readonly ages: number[] = [];
  private readonly client: pg.Client;
  private readonly sampling: Promise<void>;
  private loadDone = false;
  drained = false;

  constructor(url: string) {
    this.client = new pg.Client({ connectionString: url });
    this.sampling = this.sample();
  }

  private async sample(): Promise<void> {
    await this.client.connect();
    let deadline = Infinity;
    while (Date.now() < deadline) {
      const { rows } = await this.client.query(
        `select count(*)::int as n, coalesce(extract(epoch from clock_timestamp() - min(received_at)), 0)::float8 as age
         from aml_evaluation_queue`,
      );
      this.ages.push(rows[0].age);
      if (this.loadDone) {
        if (rows[0].n === 0) {
          this.drained = true;
          break;
        }
        deadline = Math.min(deadline, Date.now() + 180_000);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    await this.client.end();
  }

  /** Called when the load has ended: sampling goes on until the queue is empty. */
  async finish() {
    this.loadDone = true;
    await this.sampling;
    const ages = summarise(this.ages);
    return { drained: this.drained, p99Seconds: ages.p99, maxSeconds: ages.max, samples: ages.count };
  }
}

function printTable(rows: Reported[], checks: Array<{ what: string; ok: boolean; detail: string }>) {
  const header = [
    'path',
    'db',
    'mode',
    'rate/s',
    'req/s',
    'p50',
    'p90',
    'p99',
    'max',
    'gen lag',
    'errors',
    'x bare',
    'cpu',
    'pg cpu',
    'api wait',
    'rss MB',
    'verdict',
  ];
  const lines = rows.map((r) => [
    r.name,
    r.database,
    r.mode,
    r.rate === null ? '-' : String(r.rate),
    String(r.result.throughput),
    String(r.result.latency.p50),
    String(r.result.latency.p90),
    String(r.result.latency.p99),
    String(r.result.latency.max),
    String(r.result.generatorLagP99),
    String(r.result.errors),
    r.ratio === undefined ? '' : String(r.ratio),
    String(r.server.cpuCores),
    String(r.postgres.cpuCores),
    String(r.server.waitMsPerSecond),
    String(r.server.maxRssMb),
    r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  log(
    "\nLatencies in ms, from the scheduled send time (open loop); gen lag: the load generator's own event-loop delay (p99, ms); cpu in cores (the service's processes, its worker included; pg cpu: the local PostgreSQL); api wait: ms per second the API processes' event loops were ready to run but waited for a core; rss the largest API process.",
  );
  log(format(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) log(format(line));
  for (const check of checks) log(`${check.ok ? 'ok  ' : 'FAIL'} ${check.what}: ${check.detail}`);
}

function writeResults(
  rows: Reported[],
  checks: unknown[],
  primary: string,
  bareMax: number,
  sanctions: SanctionsBench | undefined,
  postgres: Record<string, string> | undefined,
): string {
  const machine = {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model,
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    kernel: os.release(),
    node: process.version,
    postgres: postgres ?? null,
  };
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join('bench', 'results', `${stamp}-${primary}${quick ? '-quick' : ''}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        run_id: runId,
        quick,
        scale,
        machine,
        bare_max_rps: bareMax,
        rows: rows.map((r) => ({ ...r, result: { ...r.result, acknowledged: undefined } })),
        checks,
        sanctions,
      },
      null,
      2,
    ) + '\n',
  );
  return file;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
