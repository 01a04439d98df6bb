import cluster, { type Worker } from 'node:cluster';
import fs from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './platform/logger.js';
import { aggregateChildrenMetrics, answerSupervisor } from './platform/metrics.js';
import { serveMetrics } from './platform/metrics-server.js';
import type { Service } from './service.js';

const SHUTDOWN_GRACE_MS = 20_000;
const RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** A process that ran this long before dying restarts after the shortest delay again. */
const HEALTHY_AFTER_MS = 30_000;

function baseUrl(config: Config, port: number): string {
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
}

/**
 * First start of an empty database: the first admin's one-time setup link when no staff account exists, a demo
 * sandbox tenant when the back-office token was generated, and the secrets printed once (only their hashes are kept).
 */
async function firstStart(service: Service, config: Config): Promise<void> {
  const { systemContext } = await import('./platform/service-context.js');
  const { createFirstAdmin } = await import('./staff/index.js');
  const staff = systemContext(service.platform);
  // The link as browsers reach the service (PUBLIC_URL), like every link it hands out.
  const base = config.publicUrl;
  const admin = await createFirstAdmin(staff, config.firstAdminEmail);
  const token = service.generatedBackofficeToken;
  if (!token && !admin) return;
  const adminLines = admin
    ? [
        `  First admin (console):    ${admin.email}: set a password and an authenticator within 24 hours at`,
        `                            ${base}${admin.setup_path}`,
      ]
    : [];
  if (!token) {
    process.stdout.write(['', 'First start: this link is shown once.', ...adminLines, ''].join('\n') + '\n');
    return;
  }
  const { createTenant, listTenants } = await import('./backoffice/service/tenants.js');
  const demo =
    (await listTenants(service.platform)).length === 0
      ? await createTenant(service.platform, staff, { name: 'Demo Operator', environment: 'sandbox' })
      : undefined;
  const lines = [
    '',
    'First start: these secrets are shown once and never again. Keep them now.',
    `  Back-office token:        ${token}`,
    ...adminLines,
  ];
  if (demo) {
    lines.push(
      `  Demo sandbox tenant:      ${demo.tenant.tenant_id} (${demo.tenant.name})`,
      `  Demo API key:             ${demo.apiKey}`,
      `  Demo webhook secret:      ${demo.signingSecret}`,
      '',
      'Try it:',
      `  curl -s ${base}/v1/health`,
      `  curl -s -H "Authorization: Bearer ${demo.apiKey}" "${base}/v1/exclusions/check?email=player@example.com"`,
    );
  }
  process.stdout.write([...lines, ''].join('\n') + '\n');
}

/**
 * Stops gracefully on SIGTERM or SIGINT, and (for a supervised process) when its supervisor is gone; exits with
 * status 1 if stopping takes longer than the drain period and SHUTDOWN_GRACE_MS.
 */
function onStop(config: Config, stop: (reason: string) => Promise<void>): void {
  let stopping = false;
  const handle = (reason: string) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), config.shutdownDrainSeconds * 1000 + SHUTDOWN_GRACE_MS + 5_000).unref();
    stop(reason).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
  // A child whose supervisor died would otherwise live on unsupervised, holding its port and connections.
  if (cluster.isWorker) process.once('disconnect', () => handle('supervisor gone'));
}

const WORKER_NICENESS = 10;

/**
 * Lowers the CPU priority of every thread of this process. On Linux a priority belongs to one thread, and V8's
 * garbage-collector helpers and libuv's pool were started before this runs: lowering only the main thread left a
 * worker's parallel collections competing with the API for the cores.
 */
function lowerPriority(niceness: number): void {
  let threads = [0];
  try {
    threads = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    // Not Linux: the process's priority is all there is to set.
  }
  for (const thread of threads) {
    try {
      os.setPriority(thread, niceness);
    } catch {
      // A thread that has ended meanwhile.
    }
  }
}

const SEMI_SPACE_MB = 32;
const PGLITE_HEAP_GROWING_PERCENT = 100;

/** Migrations and, on a first start, the secrets (role setup): the supervisor's first child. */
async function setup(config: Config, logger: Logger): Promise<void> {
  const { createService } = await import('./service.js');
  const service = await createService(config, logger);
  await firstStart(service, config);
  await service.close();
}

/** One process: the API (roles all and api) and the background workers (roles all and worker). */
async function serve(config: Config, logger: Logger): Promise<void> {
  // Imported here, not at the top: the supervisor never loads the service (see supervise).
  const { createService } = await import('./service.js');
  const service = await createService(config, logger);
  const { app } = service;
  const role = config.processRole;
  logger.info(
    { database: service.database.kind, data_dir: config.databaseUrl ? undefined : config.dataDir, role },
    'database ready',
  );
  if (role !== 'worker') {
    await app.listen({ port: config.port, host: config.host });
    const port = (app.server.address() as { port: number }).port;
    logger.info({ url: baseUrl(config, port) }, 'compliance service listening');
    service.platform.load.startSampling();
    if (role === 'all') await firstStart(service, config);
  }
  if (role !== 'api' && config.workers) service.workers.start();
  service.platform.metrics
    .counter('compliance_processes_started_total', 'Service processes started, by role', ['role'])
    .inc({ role });
  // Under the supervisor, the supervisor serves the metrics port for every process.
  const metricsServer = cluster.isWorker
    ? undefined
    : await serveMetrics(config, logger, () => service.platform.metrics.ownText());
  // A worker process's work is asynchronous; on a machine it shares with API processes, acknowledgements go first.
  if (role === 'worker') lowerPriority(WORKER_NICENESS);

  onStop(config, async (reason) => {
    logger.info(
      { reason, drain_seconds: role === 'worker' ? 0 : config.shutdownDrainSeconds },
      'shutting down: readiness answers 503 while draining, then no new connections; finishing in-flight work',
    );
    await service.close();
    await metricsServer?.close();
  });
}

/**
 * `npm start` on PostgreSQL: one API process per core but one, sharing the port (node:cluster), and one process for the
 * background work, so that neither waits on the other's event loop. A process that dies is started again.
 */
async function supervise(config: Config, logger: Logger): Promise<void> {
  // Migrations and the first-start secrets happen once, in a child of their own, before any other child opens the
  // database. The supervisor itself never loads the service: V8 would otherwise spend 10-50 ms collecting that
  // idle heap, in parallel on every core, some seconds into the API processes' first traffic.
  const setupChild = cluster.fork({ COMPLIANCE_PROCESS_ROLE: 'setup' });
  const setupCode = await new Promise<number | null>((resolve) => setupChild.once('exit', resolve));
  if (setupCode !== 0) {
    logger.error({ code: setupCode }, 'the database could not be set up; not starting');
    process.exit(1);
  }

  let stopping = false;
  const roles = new Map<Worker, { role: 'api' | 'worker'; startedAt: number }>();
  // Consecutive early deaths per role: restarts back off (1 s, 2 s, 4 s … 30 s) while, say, the database is down.
  const failures = { api: 0, worker: 0 };
  // A larger young generation: objects that live for one request (or one group commit) die there instead of being
  // promoted, so the old-generation collections whose pauses made the latency tail become rare.
  cluster.setupPrimary({ execArgv: [...process.execArgv, `--max-semi-space-size=${SEMI_SPACE_MB}`] });
  const fork = (role: 'api' | 'worker') => {
    roles.set(cluster.fork({ COMPLIANCE_PROCESS_ROLE: role }), { role, startedAt: Date.now() });
  };
  cluster.on('exit', (child, code, signal) => {
    const { role, startedAt } = roles.get(child)!;
    roles.delete(child);
    if (stopping) return;
    failures[role] = Date.now() - startedAt >= HEALTHY_AFTER_MS ? 1 : failures[role] + 1;
    const delay = Math.min(RESTART_DELAY_MS * 2 ** (failures[role] - 1), MAX_RESTART_DELAY_MS);
    logger.error(
      { role, pid: child.process.pid, code, signal, restart_in_ms: delay },
      'a service process died; starting another',
    );
    setTimeout(() => fork(role), delay);
  });
  const metricsServer = await serveMetrics(config, logger, aggregateChildrenMetrics());
  for (let i = 0; i < config.apiProcesses; i++) fork('api');
  if (config.workers) fork('worker');
  logger.info({ api_processes: config.apiProcesses, worker_process: config.workers }, 'supervising');

  onStop(config, async (reason) => {
    stopping = true;
    logger.info({ reason }, 'shutting down every service process');
    const exits = [...roles.keys()].map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of roles.keys()) child.process.kill('SIGTERM');
    await Promise.all(exits);
    await metricsServer?.close();
  });
}

async function main(): Promise<void> {
  // No pretenuring, in every process: V8 would otherwise start allocating a request's objects straight in the old
  // generation once a burst had kept some of them alive through a young collection.
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  // On embedded PGlite this one process also holds the database (its WebAssembly memory and buffers): its
  // JavaScript heap is collected when it has doubled since the last full collection, not when it has grown by up
  // to four times: at 1,000 events/s its peak resident set was about 30 MB lower, its latency the same.
  if (!config.databaseUrl) v8.setFlagsFromString(`--heap-growing-percent=${PGLITE_HEAP_GROWING_PERCENT}`);
  const logger = createLogger(config);
  if (config.processRole === 'supervisor' || config.processRole === 'all') {
    if (config.testClock) {
      logger.warn(
        '!!! COMPLIANCE_TEST_CLOCK=1: the service clock stands still and moves only by POST /backoffice/v1/clock/advance. Never enable this in production. !!!',
      );
    }
    if (config.allowPrivateWebhooks) {
      logger.warn(
        'Webhooks may be delivered to loopback and private addresses (COMPLIANCE_ALLOW_PRIVATE_WEBHOOKS): a local or test deployment only.',
      );
    }
  }
  if (config.processRole === 'supervisor') return supervise(config, logger);
  if (cluster.isWorker) answerSupervisor();
  if (config.processRole === 'setup') {
    await setup(config, logger);
    // A supervisor's child would otherwise stay alive on its IPC channel.
    process.exit(0);
  }
  return serve(config, logger);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
