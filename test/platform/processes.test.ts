import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../helpers/test-database.js';

const MAIN = path.resolve('dist/src/main.js');
const TOKEN = 'processes-test-token-0123456789abcdef';
// Required with DATABASE_URL: it encrypts the signing secrets the database holds.
const SECRETS_KEY = 'a'.repeat(64);

/** `npm start` as operators run it: the compiled entry point in its own process. */
function start(env: Record<string, string | undefined>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      // A free port each: tests run side by side.
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      COMPLIANCE_BACKOFFICE_TOKEN: TOKEN,
      COMPLIANCE_SECRETS_KEY: SECRETS_KEY,
      // Required with DATABASE_URL: the address links are built from (these tests follow none).
      PUBLIC_URL: 'http://127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const childrenOf = (pid: number) =>
  fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve(child.exitCode)
      : child.once('exit', (code) => resolve(code)),
  );

const started: ChildProcess[] = [];

describe('service processes', () => {
  const dataDirs: string[] = [];
  afterAll(async () => {
    // Whatever a failed test left running is stopped: a supervisor would otherwise restart its children forever.
    for (const child of started)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(started.map(exited));
    dataDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
  });

  it('refuses to supervise processes on embedded PGlite, which one process owns', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compliance-processes-'));
    dataDirs.push(dataDir);
    const { child, output } = start({
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      COMPLIANCE_PROCESS_ROLE: 'supervisor',
    });
    expect(await exited(child)).toBe(2);
    expect(output()).toContain('COMPLIANCE_PROCESS_ROLE=supervisor needs DATABASE_URL');
  });

  it('refuses to start on PostgreSQL without the key that encrypts the signing secrets', async () => {
    // Configuration is checked before any connection: the server named here is never reached.
    const { child, output } = start({
      DATABASE_URL: 'postgres://compliance@127.0.0.1:1/compliance',
      COMPLIANCE_SECRETS_KEY: '',
    });
    expect(await exited(child)).toBe(2);
    expect(output()).toContain('COMPLIANCE_SECRETS_KEY is required with DATABASE_URL');
  });

  it(
    'on SIGTERM answers readiness 503 while it drains, still serving, before its port closes',
    () =>
      withTestDatabase(async (databaseUrl) => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compliance-processes-'));
        dataDirs.push(dataDir);
        // On PGlite, the migrated template the service tests start from: a first start's migrations take long.
        if (!databaseUrl) {
          const template = process.env.COMPLIANCE_TEST_PGLITE_TEMPLATE!;
          fs.cpSync(template, path.join(dataDir, 'pglite'), { recursive: true });
        }
        const { child, output } = start({
          ...(databaseUrl
            ? { DATABASE_URL: databaseUrl, COMPLIANCE_PROCESS_ROLE: 'all' }
            : { DATABASE_URL: '', DATA_DIR: dataDir }),
          SHUTDOWN_DRAIN_SECONDS: '3',
        });
        const url = await until(
          () => /"url":"(http:\/\/[^"]+)","msg":"compliance service listening"/.exec(output())?.[1],
          'the service to listen',
        );
        expect((await fetch(`${url}/v1/health/ready`)).status).toBe(200);
        // One process on its own serves its metrics port itself.
        const metricsUrl = await until(
          () => /"url":"(http:\/\/[^"]+)","msg":"metrics listening"/.exec(output())?.[1],
          'the metrics port to listen',
        );
        expect(await (await fetch(metricsUrl)).text()).toContain(
          'compliance_processes_started_total{role="all"} 1',
        );

        child.kill('SIGTERM');
        const draining = await until(async () => {
          const response = await fetch(`${url}/v1/health/ready`);
          return response.status === 503 ? await response.json() : undefined;
        }, 'readiness to answer 503');
        expect(draining).toMatchObject({
          status: 'not_ready',
          checks: { database: 'ok', shutdown: 'failing' },
        });
        // Requests are still served while a load balancer takes the process out.
        expect((await fetch(`${url}/v1/health`)).status).toBe(200);
        expect(child.exitCode).toBeNull();

        expect(await exited(child)).toBe(0);
        await expect(fetch(`${url}/v1/health/ready`)).rejects.toThrow();
      }),
    60_000,
  );

  it.skipIf(!process.env.DATABASE_URL)(
    'on PostgreSQL runs API processes sharing one port beside a worker process, replaces one that dies, and stops them all on SIGTERM',
    () =>
      withTestDatabase(async (databaseUrl) => {
        const { child, output } = start({ DATABASE_URL: databaseUrl, COMPLIANCE_API_PROCESSES: '2' });
        // Both API processes listen before one is killed: the survivor keeps the shared (port 0) listener open.
        const url = await until(() => {
          const urls = [
            ...output().matchAll(/"url":"(http:\/\/[^"]+)","msg":"compliance service listening"/g),
          ];
          return urls.length === 2 ? urls[0]![1] : undefined;
        }, 'both API processes to listen');
        const children = await until(() => {
          const pids = childrenOf(child.pid!);
          return pids.length === 3 ? pids : undefined;
        }, 'two API processes and a worker process');
        expect((await fetch(`${url}/v1/health`)).status).toBe(200);
        // One scrape of the shared port sums every process's counters, the worker process's included.
        const metrics = await fetch(`${url}/backoffice/v1/metrics`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        const counted = await metrics.text();
        expect(counted).toContain('compliance_processes_started_total{role="api"} 2');
        expect(counted).toContain('compliance_processes_started_total{role="worker"} 1');
        // The supervisor serves the metrics port: every process's metrics, counters and histograms summed, each
        // process's pool added up (two API processes of 10 connections, a worker process of 4), database gauges by
        // their maximum (every process reads the same value).
        const metricsUrl = /"url":"(http:\/\/[^"]+)","msg":"metrics listening"/.exec(output())![1]!;
        const scraped = await (await fetch(metricsUrl)).text();
        expect(scraped).toContain('compliance_processes_started_total{role="api"} 2');
        expect(scraped).toContain('compliance_processes_started_total{role="worker"} 1');
        expect(scraped).toContain('compliance_db_pool_connections_max 24');
        expect(scraped).toContain('compliance_aml_evaluation_deadline_seconds 300');
        expect(scraped).toMatch(
          /compliance_http_request_duration_seconds_count\{surface="api",method="GET",route="\/v1\/health",status_class="2xx"\} 1\n/,
        );
        expect(scraped).toMatch(/\nprocess_cpu_seconds_total [0-9.]+\n/);

        const apiPid = Number(/"pid":(\d+)[^\n]*"msg":"compliance service listening"/.exec(output())![1]);
        expect(children).toContain(apiPid);
        process.kill(apiPid, 'SIGKILL');
        await until(() => {
          const pids = childrenOf(child.pid!);
          return pids.length === 3 && !pids.includes(apiPid) ? pids : undefined;
        }, 'the dead API process to be replaced');
        expect(output()).toContain('a service process died; starting another');
        expect((await fetch(`${url}/v1/health`)).status).toBe(200);

        child.kill('SIGTERM');
        expect(await exited(child)).toBe(0);
        for (const pid of children.filter((pid) => pid !== apiPid)) {
          expect(fs.existsSync(`/proc/${pid}`)).toBe(false);
        }
      }),
  );

  it.skipIf(!process.env.DATABASE_URL)(
    "role setup migrates the database, prints a first start's secrets once, and exits without serving",
    () =>
      withTestDatabase(async (databaseUrl) => {
        const first = start({
          DATABASE_URL: databaseUrl,
          COMPLIANCE_PROCESS_ROLE: 'setup',
          COMPLIANCE_BACKOFFICE_TOKEN: '',
        });
        expect(await exited(first.child)).toBe(0);
        expect(first.output()).toContain('Back-office token:');
        expect(first.output()).toContain('Demo sandbox tenant:');
        expect(first.output()).toMatch(/First admin \(console\): +admin@localhost: set a password/);
        expect(first.output()).toMatch(/http:\/\/\S+\/console\/setup\/\S{20,}/);
        expect(first.output()).not.toContain('compliance service listening');

        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          const tenants = await client.query('select name from tenants');
          expect(tenants.rows).toEqual([{ name: 'Demo Operator' }]);
          const staff = await client.query('select email, role, status from staff_accounts');
          expect(staff.rows).toEqual([{ email: 'admin@localhost', role: 'admin', status: 'invited' }]);
        } finally {
          await client.end();
        }

        // Set up already: nothing to migrate, no secrets to show again.
        const again = start({
          DATABASE_URL: databaseUrl,
          COMPLIANCE_PROCESS_ROLE: 'setup',
          COMPLIANCE_BACKOFFICE_TOKEN: '',
        });
        expect(await exited(again.child)).toBe(0);
        expect(again.output()).not.toContain('Back-office token:');
        expect(again.output()).not.toContain('First admin');
      }),
  );

  it.skipIf(!process.env.DATABASE_URL)('API and worker processes stop when their supervisor dies', () =>
    withTestDatabase(async (databaseUrl) => {
      const { child } = start({ DATABASE_URL: databaseUrl, COMPLIANCE_API_PROCESSES: '1' });
      const children = await until(() => {
        const pids = childrenOf(child.pid!);
        return pids.length === 2 ? pids : undefined;
      }, 'an API process and a worker process');
      child.kill('SIGKILL');
      await exited(child);
      await until(
        () => (children.every((pid) => !fs.existsSync(`/proc/${pid}`)) ? true : undefined),
        'the orphaned processes to stop',
      );
    }),
  );
});
