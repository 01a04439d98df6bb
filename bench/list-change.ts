/**
 * `npm run bench:list-change [-- --quick] [-- --keep-db]`: screening every player against a sanctions list change
 * (issue 31). Starts the service the benchmark's way (a fresh PostgreSQL database of DATABASE_URL's server, else
 * PGlite) over a copy of the full sanctions lists, with its three tenants live and cut over for sanctions; seeds the
 * benchmark's data (bench/seed.ts) and 1,000,000 screened players (--quick: 60,000) with a few planted ones; puts a
 * new OFAC SDN publication of 1,000 added and changed entities in the lists directory and reloads, so the service
 * records the version and its worker screens every player by the scheduled job. Meanwhile the event path and the
 * exclusion check are driven alternately, each at 60% of its own closed-loop capacity (measured after the warm-up),
 * and again before and after the screening (without it); the worker's and the API processes' memory is sampled
 * every 250 ms. Figures: from accepted to the
 * last player screened < 5 min, worker and API RSS <= 350 MB (exit 1 when missed, or when a player was not screened
 * or the hits are not the planted ones). Writes bench/results/list-change-<time>-<kind>[-quick].json. See
 * docs/performance.md.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXCERPTS_DIR } from '../src/areas/sanctions/lists/shipped-data.js';
import { round } from './lib/stats.js';
import { seedScreenedPlayers } from './list-change/players.js';
import { ProgressMonitor, RssMonitor } from './list-change/monitor.js';
import { writeListChange } from './list-change/publication.js';
import { seedVolume } from './seed.js';
import { BURST_STEADY, STEADY_SHARE } from './run/burst-steady.js';
import { evaluationDrained } from './run/database-checks.js';
import { LoadGenerator } from './run/load-generator.js';
import {
  closedSeconds,
  keepDatabase,
  log,
  phaseSeconds,
  quick,
  scale,
  token,
  warmUpSeconds,
} from './run/options.js';
import { postgresServer } from './run/report.js';
import { createTenants, freshDatabase, seededContext, startService } from './run/service.js';
import { RSS_LIMIT_MB, ROWS } from './run/targets.js';

const PLAYERS = quick ? 60_000 : 1_000_000;
const PER_KIND = 500;
const PLANTED_PER_KIND = 10;
const TARGET_SECONDS = 300;
/** The live paths, each offered STEADY_SHARE of its own closed-loop capacity (measured after the warm-up). */
const PATHS = (['aml_event', 'exclusions_check'] as const).map((scenario) => {
  const row = ROWS.find((r) => r.scenario === scenario && r.database === 'postgres')!;
  return {
    scenario,
    name: row.name,
    rate: 0,
    seconds: phaseSeconds(row.seconds),
    p99Target: scenario === 'aml_event' ? BURST_STEADY.ackP99.postgres : BURST_STEADY.checkP99.postgres,
  };
});

/** The full lists beside the clone (as scripts/eval-inputs.ts finds them), else the committed excerpts. */
function listsSource(): { dir: string; full: boolean } {
  const dir =
    process.env.SANCTIONS_DATA_DIR ?? fileURLToPath(new URL('../../shared/data/sanctions', import.meta.url));
  return fs.existsSync(dir) ? { dir, full: true } : { dir: EXCERPTS_DIR, full: false };
}

interface Phase {
  path: string;
  screening: 'running' | 'partly' | 'not running';
  when: string;
  rate: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  api_wait_ms_per_s: number;
  api_rss_mb: number;
  generator_lag_p99: number;
}

async function main() {
  if (!fs.existsSync('dist/src/main.js'))
    throw new Error('Build first: npm run build (npm run bench:list-change does it)');
  process.env.COMPLIANCE_SECRETS_KEY ??= randomBytes(32).toString('base64');
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const source = listsSource();
  log(
    source.full
      ? `lists: ${source.dir}`
      : `lists: the full lists are absent; the committed excerpts (${source.dir})`,
  );
  // The service reads a copy: the new publication is written beside the one in force, as an operator would.
  const listsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compliance-lists-'));
  fs.cpSync(source.dir, listsDir, { recursive: true });
  for (const entry of fs.readdirSync(listsDir, { recursive: true, withFileTypes: true }))
    if (entry.isDirectory()) fs.chmodSync(path.join(entry.parentPath, entry.name), 0o755);
  fs.chmodSync(listsDir, 0o755);
  const env = { SANCTIONS_DATA_DIR: listsDir };
  const loadAverage = { at_start: os.loadavg().map((n) => round(n)) };

  const database = await freshDatabase(kind);
  log(`== ${kind}: starting the service, three live tenants cut over for sanctions`);
  let service = await startService(database, env);
  const tenants = await createTenants(service, scale.tenants, 'live');
  for (const t of tenants)
    await service.backoffice(token, 'PUT', `/tenants/${t.tenant_id}/cutover`, { areas: ['sanctions'] });
  // The first load records each list's baseline version (nothing screened against a baseline).
  await service.backoffice(token, 'GET', '/sanctions/lists');
  const change = writeListChange(listsDir, PER_KIND, PLANTED_PER_KIND);
  log(
    `  the change: ${change.added} added, ${change.changed} changed (${change.leftOut} candidates an ordinary name could reach left out), ${change.planted.length} planted players`,
  );
  await service.stop();
  log(`== seeding ${JSON.stringify(scale)} and ${PLAYERS.toLocaleString('en')} screened players`);
  const seedStarted = performance.now();
  const tenantIds = tenants.map((t) => t.tenant_id);
  await seedVolume(database, tenantIds, scale, log, 'live');
  await seedScreenedPlayers(database, tenantIds, PLAYERS, change.planted, change.untouched, log);
  const seedSeconds = round((performance.now() - seedStarted) / 1000, 1);
  service = await startService(database, env);
  // Every process holds the lists from its start (a live tenant is cut over); the API's answer waits for its load.
  await service.backoffice(token, 'GET', '/sanctions/lists');
  await new Promise((resolve) => setTimeout(resolve, 5000));

  const context = seededContext(tenants);
  const generator = new LoadGenerator();
  const phases: Phase[] = [];
  let seed = 100;
  const measure = async (p: (typeof PATHS)[number], when: string, progress?: ProgressMonitor) => {
    const runningBefore = progress ? !progress.finished : false;
    const { result, server } = await generator.measure(service, {
      scenario: p.scenario,
      context,
      mode: 'open',
      rate: p.rate,
      durationSeconds: p.seconds,
      connections: 64,
      seed: seed++,
      expectStatus: p.scenario === 'aml_event' ? [202] : [200],
    });
    const runningAfter = progress ? !progress.finished : false;
    const phase: Phase = {
      path: p.name,
      screening: runningBefore && runningAfter ? 'running' : runningBefore ? 'partly' : 'not running',
      when,
      rate: p.rate,
      seconds: p.seconds,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      errors: result.errors,
      api_wait_ms_per_s: server.waitMsPerSecond,
      api_rss_mb: server.maxRssMb,
      generator_lag_p99: result.generatorLagP99,
    };
    phases.push(phase);
    log(
      `  ${phase.path} (${phase.when}, screening ${phase.screening}): p99 ${phase.p99} ms, ${phase.errors} errors`,
    );
  };
  const withoutScreening = async (when: string) => {
    for (const p of PATHS) {
      if (database.url) await evaluationDrained(database.url);
      await measure(p, when);
    }
  };

  log(
    '== warm-up, then each path closed loop for its capacity, then alone at 60% of it without the screening',
  );
  for (const p of PATHS) {
    const spec = { baseUrl: service.baseUrl, scenario: p.scenario, context, connections: 64, seed: 1 };
    const expectStatus = [200, 202];
    await generator.run({ ...spec, mode: 'open', rate: 1000, durationSeconds: warmUpSeconds, expectStatus });
    if (database.url) await evaluationDrained(database.url);
    const closed = await generator.run({
      ...spec,
      mode: 'closed',
      durationSeconds: closedSeconds,
      expectStatus,
    });
    p.rate = Math.round(closed.throughput * STEADY_SHARE);
    log(`  ${p.name}: ${Math.round(closed.throughput)}/s closed loop, offered ${p.rate}/s`);
  }
  await withoutScreening('before');

  log('== the new publication in place, reloaded: the worker screens every player against the change');
  if (database.url) await evaluationDrained(database.url);
  const rss = new RssMonitor(service);
  change.publish();
  await service.backoffice(token, 'POST', '/sanctions/lists/reload', {});
  const { versions } = (await service.backoffice(
    token,
    'GET',
    '/sanctions/lists/versions?list=ofac_sdn&limit=1',
  )) as unknown as {
    versions: Array<{ version_id: string; published_on: string }>;
  };
  const versionId = versions[0]!.version_id;
  const progress = new ProgressMonitor(service, token, versionId, database.url);
  // Each path once (twice in a full run) while the screening runs, then none until it ends.
  for (let i = 0; !progress.finished && i < PATHS.length * (quick ? 1 : 2); i++)
    await measure(PATHS[i % PATHS.length]!, 'during', progress);
  const finished = await progress.untilFinished(30 * 60_000);
  const memory = rss.stop();
  await progress.stop();
  const version = progress.latest!;
  await withoutScreening('after');
  generator.close();
  await service.stop();
  const loadAtEnd = os.loadavg().map((n) => round(n));
  if (keepDatabase) log(`kept the database: ${database.url ?? database.dataDir}`);
  else await database.drop();
  fs.rmSync(listsDir, { recursive: true, force: true });

  const screening = version.screening;
  const seconds = screening?.seconds_to_last_player ?? null;
  const checks = [
    {
      what: 'screened by the change: 500 added, 500 changed',
      ok: version.added === change.added && version.changed === change.changed,
      detail: `${version.added} added, ${version.changed} changed, ${version.removed} removed`,
    },
    {
      what: `from accepted to the last player screened < ${TARGET_SECONDS} s`,
      ok: finished && seconds !== null && seconds < TARGET_SECONDS,
      detail: `${seconds ?? 'not finished'} s`,
      figure: true,
    },
    {
      what: `worker RSS <= ${RSS_LIMIT_MB} MB`,
      ok: memory.worker_peak_mb <= RSS_LIMIT_MB,
      detail: `${memory.worker_start_mb} MB before, peak ${memory.worker_peak_mb} MB`,
      figure: true,
    },
    {
      what: `API RSS <= ${RSS_LIMIT_MB} MB`,
      ok: memory.api_peak_mb <= RSS_LIMIT_MB,
      detail: `${memory.api_start_mb} MB before, peak ${memory.api_peak_mb} MB`,
      figure: true,
    },
    {
      what: 'every player screened',
      ok: !!screening && screening.screened >= screening.total,
      detail: `${screening?.screened} screened of ${screening?.total}`,
    },
    {
      what: 'new hits are the planted players',
      ok: screening?.new_hits === change.planted.length,
      detail: `${screening?.new_hits} new hits, ${change.planted.length} planted`,
    },
  ];
  for (const p of PATHS) {
    const during = phases.filter((x) => x.path === p.name && x.screening === 'running');
    const worst = Math.max(...during.map((x) => x.p99));
    checks.push({
      what: `${p.name} p99 <= ${p.p99Target} ms while the screening runs (reported, not an exit)`,
      ok: during.length > 0 && worst <= p.p99Target && during.every((x) => x.errors === 0),
      detail: during.length
        ? `p99 ${during.map((x) => x.p99).join(', ')} ms`
        : 'no phase ran wholly during the screening',
    });
  }

  log(
    '\npath                        when     screening     rate    p50 ms  p99 ms  max ms  errors  api wait  API RSS',
  );
  for (const p of phases)
    log(
      `${p.path.padEnd(27)} ${p.when.padEnd(8)} ${p.screening.padEnd(13)} ${String(p.rate).padEnd(7)} ${String(p.p50).padEnd(7)} ${String(p.p99).padEnd(7)} ${String(p.max).padEnd(7)} ${String(p.errors).padEnd(7)} ${String(p.api_wait_ms_per_s).padEnd(9)} ${p.api_rss_mb}`,
    );
  log(
    `\nscreening: ${screening?.screened} players in ${seconds} s (accepted ${version.accepted_at}), ${screening?.new_hits} new hits; oldest queued AML event during it ${round(progress.maxEvaluationAgeSeconds, 1)} s`,
  );
  for (const c of checks) log(`${c.ok ? 'ok  ' : 'MISS'} ${c.what}: ${c.detail}`);

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join('bench', 'results', `list-change-${stamp}-${kind}${quick ? '-quick' : ''}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memory_gb: round(os.totalmem() / 1024 ** 3, 1),
  };
  const { publish: _publish, ...changeFacts } = change;
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        kind,
        scale,
        players: PLAYERS,
        lists: source.full ? 'full' : 'excerpts',
        machine,
        postgres: await postgresServer(),
        load_average: { ...loadAverage, at_end: loadAtEnd },
        seed_seconds: seedSeconds,
        batch: { size: Number(process.env.SANCTIONS_LIST_SCREEN_BATCH_SIZE ?? 2000), paced: 'ADR 0019' },
        change: changeFacts,
        version,
        memory,
        oldest_queued_aml_event_seconds: round(progress.maxEvaluationAgeSeconds, 1),
        phases,
        checks,
      },
      null,
      2,
    ) + '\n',
  );
  log(`results: ${file}`);
  process.exitCode = checks.every((c) => c.ok || c.what.includes('reported, not an exit')) ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
