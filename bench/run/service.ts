/** The service under load: a fresh database, the service's processes on it, its tenants, seed and warm cache. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../../test/helpers/test-database.js';
import { childPids, processRole } from '../lib/proc.js';
import type { BenchContext } from '../scenarios.js';
import { seedVolume } from '../seed.js';
import { ServiceProcess } from '../service-process.js';
import { LoadGenerator } from './load-generator.js';
import { cpuProfile, log, runId, scale, timelineDir, token } from './options.js';

/** A fresh database: a new PostgreSQL database on the server of DATABASE_URL, or a PGlite directory. */
export async function freshDatabase(kind: 'postgres' | 'pglite') {
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

/** The service's processes on `database`; `env` adds to their environment (SANCTIONS_DATA_DIR, say). */
export async function startService(
  database: { url: string | undefined; dataDir: string },
  env: Record<string, string | undefined> = {},
) {
  const service = await ServiceProcess.start(
    {
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      COMPLIANCE_BACKOFFICE_TOKEN: token,
      LOG_LEVEL: 'info',
      ...env,
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
export async function createTenants(
  service: ServiceProcess,
  count: number,
  environment: 'sandbox' | 'live' = 'sandbox',
) {
  await service.backoffice(token, 'PUT', '/fx-rates/EUR', { usd_per_unit: 1.08 });
  await service.backoffice(token, 'PUT', '/fx-rates/GBP', { usd_per_unit: 1.27 });
  const tenants: BenchContext['tenants'] = [];
  for (let i = 0; i < count; i++) {
    const created = await service.backoffice(token, 'POST', '/tenants', {
      name: `Bench ${i + 1}`,
      environment,
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

/** What the load generator knows of the benchmark's seed, for these tenants. */
export const seededContext = (tenants: BenchContext['tenants']): BenchContext => ({
  runId,
  tenants,
  usersPerTenant: scale.usersPerTenant,
  exclusions: scale.exclusions,
  geoIps: [],
});

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
export async function warmGeo(service: ServiceProcess, context: BenchContext) {
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

export async function preparedService(kind: 'postgres' | 'pglite', volume: boolean) {
  const database = await freshDatabase(kind);
  log(`== ${kind}: starting the service`);
  let service = await startService(database);
  const tenants = await createTenants(service, scale.tenants);
  const context = seededContext(tenants);
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
