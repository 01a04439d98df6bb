/**
 * `npx tsx bench/console.ts [--quick] [--n=200] [--warmup=20] [--pages=queues,audit] [--keep-db] [--reuse=<db>]`:
 * the console's latency with real volumes. Starts the built service (PostgreSQL on a fresh database of the server
 * of DATABASE_URL, else PGlite), seeds seedVolume's data plus 100,000 open review cases (10,000 with --quick),
 * creates an admin through the back office, sets it up through its one-time link and signs in at /console/login as
 * a person would, then times N sequential GETs of every console page and queue (after a warm-up) and checks each
 * answers 200. Prints a table (p50, p95, max in ms; the target is p95 < 200 ms) and writes
 * bench/results/console-<time>[-quick].json. See docs/performance.md.
 */
import { randomBytes } from 'node:crypto';
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { totpCode } from '../src/staff/totp.js';
import { assignTo, seededCases, seedOpenCases } from './console-seed.js';
import { round } from './lib/stats.js';
import { postgresServer } from './run/report.js';
import { keepDatabase, log, quick, scale, token } from './run/options.js';
import { preparedService } from './run/service.js';
import { ServiceProcess } from './service-process.js';

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const N = Number(flag('n') ?? 200);
const WARM_UP = Number(flag('warmup') ?? 20);
const onlyPages = flag('pages')?.split(',');
/** `--reuse=<database>`: measure a database kept by an earlier `--keep-db` run (PostgreSQL), without seeding. */
const reuse = flag('reuse');
const OPEN_CASES = quick ? 10_000 : 100_000;
/** Cases of each queue the signed-in admin has taken (the "assigned to me" filter). */
const ADMIN_CASES_PER_QUEUE = 25;
const TARGET_P95_MS = 200;

interface Measured {
  page: string;
  urls: string[];
  count: number;
  p50: number;
  p95: number;
  max: number;
  bytes: number;
  load: [number, number];
  verdict: string;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const uptime = () => execSync('uptime').toString().trim();
const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** An admin created through the back office, set up through its one-time link; returns its session cookie. */
async function signedInAdmin(service: ServiceProcess) {
  const email = `bench.admin.${randomBytes(3).toString('hex')}@compliance.example`;
  const created = await service.backoffice(token, 'POST', '/staff', {
    email,
    display_name: 'Bench Admin',
    role: 'admin',
  });
  const setupPath = created.setup_path as string;
  const setupPage = await (await request(`${service.baseUrl}${setupPath}`)).body.text();
  const secret = /name="totp_secret" value="([^"]+)"/.exec(setupPage)?.[1];
  if (!secret) throw new Error(`no totp_secret on the setup page:\n${setupPage.slice(0, 500)}`);
  const password = `bench ${randomBytes(12).toString('hex')}`;
  const setup = await request(`${service.baseUrl}${setupPath}`, {
    method: 'POST',
    ...form({ password, totp_secret: secret, code: totpCode(secret, new Date()) }),
  });
  if (setup.statusCode !== 200)
    throw new Error(`setup failed: ${setup.statusCode} ${await setup.body.text()}`);
  await setup.body.dump();
  // A code is accepted once: signing in waits for the authenticator's next time step.
  await new Promise((resolve) => setTimeout(resolve, (30 - (Math.floor(Date.now() / 1000) % 30) + 1) * 1000));
  const login = await request(`${service.baseUrl}/console/login`, {
    method: 'POST',
    ...form({ email, password, code: totpCode(secret, new Date()) }),
  });
  await login.body.dump();
  const cookie = /console_session=([^;]+)/.exec(String(login.headers['set-cookie']))?.[1];
  if (login.statusCode !== 303 || !cookie) throw new Error(`sign-in failed: ${login.statusCode}`);
  return { staffId: created.staff_id as string, cookie: `console_session=${cookie}` };
}

/** N sequential GETs (after a warm-up), cycling through `urls`; any answer but 200 stops the run. */
async function measure(baseUrl: string, cookie: string, page: string, urls: string[]): Promise<Measured> {
  const latencies: number[] = [];
  let bytes = 0;
  const loadBefore = os.loadavg()[0]!;
  for (let i = 0; i < WARM_UP + N; i++) {
    const url = urls[i % urls.length]!;
    const started = performance.now();
    const response = await request(`${baseUrl}${url}`, { headers: { cookie } });
    const body = await response.body.text();
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200)
      throw new Error(`GET ${url}: ${response.statusCode}\n${body.slice(0, 800)}`);
    if (i >= WARM_UP) latencies.push(elapsed);
    bytes = body.length;
  }
  latencies.sort((a, b) => a - b);
  const p95 = round(quantile(latencies, 0.95), 1);
  return {
    page,
    urls,
    count: latencies.length,
    p50: round(quantile(latencies, 0.5), 1),
    p95,
    max: round(latencies[latencies.length - 1]!, 1),
    bytes,
    load: [round(loadBefore), round(os.loadavg()[0]!)],
    verdict: p95 < TARGET_P95_MS ? 'ok' : `FAIL (p95 >= ${TARGET_P95_MS} ms)`,
  };
}

function printTable(rows: Measured[]) {
  const header = ['page', 'n', 'p50', 'p95', 'max', 'KB', 'load 1m', 'verdict'];
  const lines = rows.map((r) => [
    r.page,
    String(r.count),
    String(r.p50),
    String(r.p95),
    String(r.max),
    String(round(r.bytes / 1024, 1)),
    `${r.load[0]}→${r.load[1]}`,
    r.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  log('\nSequential GETs through a signed-in admin session; latencies in ms, client side, full body read.');
  log(format(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) log(format(line));
}

/** A fresh database with seedVolume's data and the open cases; the service is stopped on return. */
async function seeded() {
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const { database, service, context } = await preparedService(kind, true);
  const tenantIds = context.tenants.map((t) => t.tenant_id);
  // The cases are written with the service stopped (PGlite allows one process), then it starts on them afresh.
  await service.stop();
  log(`== seeding ${OPEN_CASES} open review cases`);
  try {
    const seededCases = await seedOpenCases(database, tenantIds, scale.usersPerTenant, OPEN_CASES, log);
    return { database, tenantIds, ...seededCases };
  } catch (error) {
    if (!keepDatabase) await database.drop();
    throw error;
  }
}

/**
 * A database an earlier run kept (--keep-db), on the server of DATABASE_URL: measured again without seeding. Its
 * service needs the COMPLIANCE_SECRETS_KEY the seeding run had (set it in the environment of both).
 */
async function reused(name: string) {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compliance-bench-'));
  const database = {
    url: url.toString(),
    dataDir,
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
  return { database, ...(await seededCases(database)), timings: {} };
}

async function main() {
  if (!fs.existsSync('dist/src/main.js')) throw new Error('Build first: npx tsc -p tsconfig.build.json');
  process.env.COMPLIANCE_SECRETS_KEY ??= randomBytes(32).toString('base64');
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const started = Date.now();
  const { database, tenantIds, timings, cases } = reuse ? await reused(reuse) : await seeded();
  const service = await ServiceProcess.start({
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    COMPLIANCE_BACKOFFICE_TOKEN: token,
    LOG_LEVEL: 'info',
  });
  const results: Measured[] = [];
  const loadAtStart = uptime();
  try {
    const admin = await signedInAdmin(service);
    await assignTo(database, admin.staffId, ADMIN_CASES_PER_QUEUE);
    log(`== measuring (${uptime()})`);
    const [t0, t1] = tenantIds;
    const pages: [string, string[]][] = [
      ['dashboard', ['/console']],
      ...(['sanctions', 'aml', 'kyc'] as const).flatMap((q): [string, string[]][] => [
        [`queue ${q}`, [`/console/queues/${q}`]],
        [
          `queue ${q} tenant`,
          [`/console/queues/${q}?tenant_id=${t0}`, `/console/queues/${q}?tenant_id=${t1}`],
        ],
        [`queue ${q} assignee=me`, [`/console/queues/${q}?assignee=me`]],
      ]),
      ['case sanctions', cases.sanctions.map((id) => `/console/sanctions/${id}`)],
      ['case aml', cases.aml.map((id) => `/console/aml/${id}`)],
      ['case kyc', cases.kyc.map((id) => `/console/kyc/${id}`)],
      ['approvals', ['/console/approvals']],
      ['player', [`/console/players/${cases.player.tenantId}/${cases.player.userId}`]],
      ['audit', ['/console/audit']],
      ['audit actor', cases.staffIds.slice(0, 4).map((id) => `/console/audit?actor=${id}`)],
      // A rare actor whose entries are the oldest: the search walks back through the whole log.
      ['audit actor backoffice', ['/console/audit?actor=backoffice']],
      ['tenants', ['/console/tenants']],
      ['tenant', tenantIds.map((id) => `/console/tenants/${id}`)],
      ['countries', ['/console/countries']],
      ['regulator', ['/console/regulator']],
      ['staff', ['/console/staff']],
    ];
    for (const [page, urls] of pages) {
      if (onlyPages && !onlyPages.some((p) => page.includes(p))) continue;
      const measured = await measure(service.baseUrl, admin.cookie, page, urls);
      log(`  ${page}: p50 ${measured.p50} ms, p95 ${measured.p95} ms, max ${measured.max} ms`);
      results.push(measured);
    }
  } finally {
    await service.stop();
    if (!keepDatabase || reuse) await database.drop();
    else log(`database kept: ${database.url ?? database.dataDir}`);
  }
  printTable(results);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join('bench', 'results', `console-${stamp}-${kind}${quick ? '-quick' : ''}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const machine = {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model,
    memory_gb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres: (await postgresServer()) ?? null,
  };
  const summary = {
    quick,
    scale,
    open_cases: OPEN_CASES,
    n: N,
    warm_up: WARM_UP,
    target_p95_ms: TARGET_P95_MS,
  };
  const run = {
    seconds: Math.round((Date.now() - started) / 1000),
    uptime_start: loadAtStart,
    uptime_end: uptime(),
  };
  fs.writeFileSync(
    file,
    JSON.stringify({ ...summary, run, machine, seeding: timings, pages: results }, null, 2) + '\n',
  );
  log(`\n${run.uptime_end}\nresults: ${file}`);
  process.exitCode = results.some((r) => r.verdict !== 'ok') ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
