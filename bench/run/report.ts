/** The run's output: the table on standard output and the result file under bench/results/. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { LoadResult } from '../loadgen.js';
import { log, quick, runId, scale } from './options.js';
import type { SanctionsBench } from './sanctions.js';

/** One measured phase, as printed and written. */
export interface Reported {
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

/** A figure checked outside the phases' table (stored events, async lag, the sanctions matcher). */
export interface Check {
  what: string;
  ok: boolean;
  detail: string;
}

/** The server of DATABASE_URL, for the results' machine description: its version and the settings that matter here. */
export async function postgresServer(): Promise<Record<string, string> | undefined> {
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

export function printTable(rows: Reported[], checks: Check[]) {
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

export function writeResults(
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
