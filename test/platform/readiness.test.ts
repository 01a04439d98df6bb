import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { kycVendors } from '../../src/areas/kyc/kyc.vendor.js';
import { useSuite } from '../helpers/suite.js';
import { temporaryDirectory } from '../helpers/temporary-directory.js';
import { TestService } from '../helpers/test-service.js';

const UN_LIST = path.resolve('src/areas/sanctions/lists/fixtures/excerpts/un/UN_consolidated.xml');

type Readiness = { status: string; checks: Record<string, string> };

/** GET /v1/health/ready as a load balancer asks: no credentials. */
async function ready(t: TestService): Promise<{ statusCode: number; body: Readiness }> {
  const response = await t.inject({ method: 'GET', url: '/v1/health/ready' });
  return { statusCode: response.statusCode, body: response.json<Readiness>() };
}

/** Asks until the answer has this status code (a reconnect, a load, take a moment), and returns it. */
async function readyUntil(t: TestService, statusCode: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await ready(t);
    if (answer.statusCode === statusCode || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every check ok, Redis's only when the service has a REDIS_URL. */
const allOk = (t: TestService) => ({
  status: 'ready',
  checks: {
    database: 'ok',
    migrations: 'ok',
    ...(t.config.redisUrl && { redis: 'ok' }),
    vendors: 'ok',
    shutdown: 'ok',
  },
});

describe('GET /v1/health/ready', () => {
  const suite = useSuite(() => TestService.start());

  it('answers 200 ready without credentials when every check passes', async () => {
    const t = suite.current;
    expect(await ready(t)).toEqual({ statusCode: 200, body: allOk(t) });
  });

  it('answers 503 naming migrations while one of this build is not applied, 200 once it is', async () => {
    const t = suite.current;
    const { rows } = await sql<{
      name: string;
      timestamp: string;
    }>`delete from kysely_migration where name = (select max(name) from kysely_migration) returning *`.execute(
      t.db,
    );
    try {
      expect(await ready(t)).toEqual({
        statusCode: 503,
        body: { status: 'not_ready', checks: { ...allOk(t).checks, migrations: 'failing' } },
      });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${rows[0]!.name}, ${rows[0]!.timestamp})`.execute(
        t.db,
      );
    }
    expect((await ready(t)).statusCode).toBe(200);
  });

  it('answers 503 naming vendors while an active live tenant is cut over to an area with no production vendor', async () => {
    const t = suite.current;
    const live = await t.createTenant({ environment: 'live' });
    // No production KYC vendor on this deployment.
    expect(
      (await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['kyc'] })).statusCode,
    ).toBe(200);
    expect(await ready(t)).toEqual({
      statusCode: 503,
      body: { status: 'not_ready', checks: { ...allOk(t).checks, vendors: 'failing' } },
    });
    // A suspended tenant is refused before any vendor: it holds no process back.
    await t.backoffice('POST', `/tenants/${live.tenantId}/suspend`);
    expect((await ready(t)).statusCode).toBe(200);
    await t.backoffice('POST', `/tenants/${live.tenantId}/reinstate`);
    expect((await ready(t)).statusCode).toBe(503);
    await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: [] });
    expect((await ready(t)).statusCode).toBe(200);
  });

  it('answers 503 naming database once its database is closed', async () => {
    // Closing cannot be undone (embedded PGlite lives in the process): an outage and its recovery are below, on PostgreSQL.
    const other = await TestService.start();
    try {
      await other.service.database.close();
      const { statusCode, body } = await ready(other);
      expect(statusCode).toBe(503);
      expect(body.checks).toMatchObject({ database: 'failing', shutdown: 'ok' });
    } finally {
      await other.service.app.close();
    }
  });
});

describe('readiness of the production vendors', () => {
  it('a cut-over area whose production vendor exists is ready', async () => {
    const t = await TestService.start({ vendors: { kyc: { production: kycVendors().sandbox } } });
    try {
      const live = await t.createTenant({ environment: 'live' });
      await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['kyc'] });
      expect((await ready(t)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('sanctions lists not loaded keep a process not ready; once they load it is ready', async () => {
    const dir = temporaryDirectory('readiness-lists-');
    const t = await TestService.start({ sanctionsDataDir: dir.path });
    try {
      const live = await t.createTenant({ environment: 'live' });
      await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['sanctions'] });
      // The directory holds no list yet: the production matcher exists but has nothing to screen against.
      expect((await ready(t)).body.checks.vendors).toBe('failing');
      fs.mkdirSync(path.join(dir.path, 'un'));
      fs.copyFileSync(UN_LIST, path.join(dir.path, 'un', 'UN_consolidated.xml'));
      // Asking again starts the load.
      expect(await readyUntil(t, 200)).toEqual({ statusCode: 200, body: allOk(t) });
    } finally {
      await t.close();
      dir.close();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)('readiness while PostgreSQL is unreachable', () => {
  it('answers 503 naming database while the server refuses the service, 200 once it accepts it again', async () => {
    const t = await TestService.start();
    const name = new URL(t.config.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      expect((await ready(t)).statusCode).toBe(200);
      // As an outage looks to the service: its connections dropped and new ones refused.
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      const down = await ready(t);
      expect(down.statusCode).toBe(503);
      expect(down.body.checks).toMatchObject({ database: 'failing', shutdown: 'ok' });
      expect(JSON.stringify(down.body)).not.toContain('127.0.0.1');

      await admin.query(`alter database ${name} allow_connections true`);
      expect(await readyUntil(t, 200)).toEqual({ statusCode: 200, body: allOk(t) });
    } finally {
      await admin.query(`alter database ${name} allow_connections true`);
      await admin.end();
      await t.close();
    }
  });
});

/** A free TCP port of 127.0.0.1, for a server the test starts. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Redis server of the test's own, which it can stop and start again on the same port. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  return child;
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('readiness while Redis is unreachable', () => {
  it('answers 503 naming redis while its Redis is stopped, 200 once it is back', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const t = await TestService.start({ redisUrl: `redis://127.0.0.1:${port}` });
    try {
      expect(await readyUntil(t, 200)).toEqual({ statusCode: 200, body: allOk(t) });
      await stopRedis(redis);
      expect(await readyUntil(t, 503)).toEqual({
        statusCode: 503,
        body: { status: 'not_ready', checks: { ...allOk(t).checks, redis: 'failing' } },
      });
      redis = await startRedis(port);
      expect(await readyUntil(t, 200)).toEqual({ statusCode: 200, body: allOk(t) });
    } finally {
      await t.close();
      await stopRedis(redis);
    }
  });
});
