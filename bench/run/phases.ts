/**
 * The run's measured phases: bare Fastify (the ceiling), then each hot path on each database (warm-up, open loop
 * at the target rate, closed loop), then the async AML rules.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import type { BenchContext } from '../scenarios.js';
import { measureBurstThenSteady } from './burst-steady.js';
import { countStored, evaluationDrained, EvaluationLag } from './database-checks.js';
import { LoadGenerator, type MeasuredServer } from './load-generator.js';
import { closedSeconds, keepDatabase, log, only, phaseSeconds, runId, warmUpSeconds } from './options.js';
import type { Check, Reported } from './report.js';
import { preparedService } from './service.js';
import { ASYNC, expectedStatuses, RSS_LIMIT_MB, type Row } from './targets.js';

type DatabaseKind = 'postgres' | 'pglite';

/** The ceiling: bare Fastify with the same parsing and validation, closed loop. Returns its maximum (req/s). */
export async function measureBare(reported: Reported[]): Promise<number> {
  const bare = fork(path.join(import.meta.dirname, '..', 'bare-server.ts'), {
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
  return bareMax;
}

/**
 * Every row measured on one database, from a fresh database and service, then the stored-events check. `primary`
 * is the database of DATABASE_URL (PGlite without it); PGlite's own row runs after PostgreSQL's rows.
 */
export async function measureDatabase(
  kind: DatabaseKind,
  primary: DatabaseKind,
  rows: Row[],
  bareMax: number,
  reported: Reported[],
  checks: Check[],
): Promise<void> {
  const kindRows = rows.filter((row) =>
    kind === 'pglite' ? row.database === 'pglite' || primary === 'pglite' : row.database === 'postgres',
  );
  const burstSteady = !only || only.includes('burst_steady');
  const asyncRules = kind === 'postgres' && (!only || only.includes('aml_async'));
  if (kindRows.length === 0 && !burstSteady && !asyncRules) return;
  const volume =
    kindRows.some((row) => row.database === 'postgres' || primary === 'pglite') ||
    asyncRules ||
    (burstSteady && kind === primary);
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
      reported.push(...(await measureRow(service, database.url, context, row, kind, bareMax)));
    }
    if (asyncRules) {
      const { phase, check } = await measureAsync(service, database.url!, context, kind);
      reported.push(phase);
      checks.push(check);
    }
    if (burstSteady) {
      const phase = await measureBurstThenSteady(service, database.url, context, kind);
      reported.push(...phase.phases);
      checks.push(...phase.checks);
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

/** One hot path: an unmeasured warm-up, open loop at the row's rate, then closed loop for the maximum. */
async function measureRow(
  service: MeasuredServer,
  databaseUrl: string | undefined,
  context: BenchContext,
  row: Row,
  kind: DatabaseKind,
  bareMax: number,
): Promise<Reported[]> {
  log(
    `== ${row.name} on ${kind}: ${row.rate}/s open loop for ${phaseSeconds(row.seconds)} s, then closed loop`,
  );
  const expectStatus = expectedStatuses(row.scenario);
  // Each path is measured on its own: the evaluation of earlier phases' AML events must not run beside it.
  if (databaseUrl) await evaluationDrained(databaseUrl);
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
  if (open.server.maxRssMb > RSS_LIMIT_MB) failures.push(`RSS ${open.server.maxRssMb} MB > ${RSS_LIMIT_MB}`);
  const openPhase: Reported = {
    name: row.name,
    mode: 'open',
    database: kind,
    rate: row.rate,
    ...open,
    verdict: failures.length ? `FAIL: ${failures.join('; ')}` : `ok (p99 <= ${row.p99Target} ms)`,
  };
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
  return [
    openPhase,
    { name: row.name, mode: 'closed', database: kind, rate: null, ...closed, ratio, verdict: ratioVerdict },
  ];
}

/** The async AML rules: events at a fixed rate, then how long they waited for evaluation until the queue drained. */
async function measureAsync(
  service: MeasuredServer,
  databaseUrl: string,
  context: BenchContext,
  kind: DatabaseKind,
): Promise<{ phase: Reported; check: Check }> {
  // Quick runs keep 10 s of load: fewer leave too small a backlog to show the pacing.
  const seconds = Math.max(10, phaseSeconds(ASYNC.seconds));
  log(`== async AML rules: ${ASYNC.rate} events/s for ${seconds} s, then until the backlog drains`);
  const evaluationLag = new EvaluationLag(databaseUrl, ASYNC.deadlineSeconds);
  const generator = new LoadGenerator();
  const load = await generator.measure(service, {
    scenario: 'aml_event',
    context,
    mode: 'open',
    rate: ASYNC.rate,
    durationSeconds: seconds,
    connections: 64,
    seed: 17,
    expectStatus: [202],
  });
  generator.close();
  const lag = await evaluationLag.finish();
  // The largest wait bounds every event's, so it is held to the deadline.
  const ok = lag.drained && lag.maxSeconds <= ASYNC.deadlineSeconds;
  return {
    phase: {
      name: 'async AML rules (ack to evaluated)',
      mode: 'open',
      database: kind,
      rate: ASYNC.rate,
      ...load,
      verdict: `${ok ? 'ok' : 'FAIL'}: oldest queued event p99 ${lag.p99Seconds} s, max ${lag.maxSeconds} s, ${lag.drained ? 'backlog drained' : 'backlog NOT drained'}`,
    },
    check: {
      what: `async AML wait under the ${ASYNC.deadlineSeconds} s deadline (largest) and drained`,
      ok,
      detail: JSON.stringify(lag),
    },
  };
}
