/**
 * `npx tsx bench/standing.ts`: rewrites the table of where each path stands in docs/performance.md (between
 * `<!-- standing:start -->` and `<!-- standing:end -->`) from the newest full (not `--quick`) result file of each
 * database in bench/results/, so that the page always shows a committed run, never figures typed by hand.
 */
import fs from 'node:fs';
import path from 'node:path';

const RESULTS_DIR = path.join(import.meta.dirname, 'results');
const PAGE = path.join(import.meta.dirname, '..', 'docs', 'performance.md');
const START = '<!-- standing:start -->';
const END = '<!-- standing:end -->';
const DATABASES = ['postgres', 'pglite'] as const;
type Database = (typeof DATABASES)[number];

/** The parts of a result file (written by bench/run/report.ts) that the table reads. */
interface ResultFile {
  quick: boolean;
  bare_max_rps: number;
  rows: Array<{
    name: string;
    mode: 'open' | 'closed';
    database: string;
    rate: number | null;
    result: { throughput: number; latency: { p99: number } };
    ratio?: number;
    verdict: string;
  }>;
  checks: Array<{ what: string; ok: boolean; detail: string }>;
  sanctions?: { results: Array<{ measure: string; value: number; unit: string; target: number }> };
}

/** The newest full run of each database, by the timestamp that starts its file name. */
function newestRuns(): Array<{ database: Database; file: string; run: ResultFile }> {
  const files = fs
    .readdirSync(RESULTS_DIR)
    // The main runs' files are named by their time alone; the other benchmarks' carry their name first.
    .filter((name) => /^\d{4}-/.test(name) && name.endsWith('.json') && !name.includes('quick'))
    .sort()
    .reverse();
  return DATABASES.flatMap((database) => {
    const file = files.find((name) => name.endsWith(`-${database}.json`));
    if (!file) return [];
    const run = JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, file), 'utf8')) as ResultFile;
    return run.quick ? [] : [{ database, file, run }];
  });
}

const count = (n: number) => n.toLocaleString('en-US');
const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

/** `POST /v1/geo/check (cache hits)` → `` `POST /v1/geo/check` (cache hits) ``; the database has its own column. */
function pathName(name: string): string {
  const match = /^(GET|POST) (\S+)(.*)$/.exec(name.replace(' (PGlite)', ''));
  return match ? `\`${match[1]} ${match[2]}\`${match[3]}` : name;
}

/** `met`, or `not met:` with every failed figure of the row's phases. */
function verdict(verdicts: string[]): string {
  const failures = verdicts.filter((v) => v.startsWith('FAIL')).map((v) => v.replace(/^FAIL:? */, ''));
  if (failures.length > 0) return `not met: ${failures.join('; ').replaceAll(' x bare', ' × bare')}`;
  return verdicts.some((v) => v.startsWith('ok')) ? 'met' : '—';
}

function rowsOf(database: Database, run: ResultFile): string[][] {
  const lines: string[][] = [];
  const paths = [...new Set(run.rows.map((row) => `${row.name}\u0000${row.database}`))];
  for (const key of paths) {
    const [name, rowDatabase] = key.split('\u0000') as [string, string];
    const phases = run.rows.filter((row) => row.name === name && row.database === rowDatabase);
    const open = phases.find((row) => row.mode === 'open');
    const closed = phases.find((row) => row.mode === 'closed');
    const bare = rowDatabase === '-';
    const where = bare
      ? `— (${database} run)`
      : rowDatabase === database
        ? rowDatabase
        : `${rowDatabase}, after the ${database} phases`;
    const ratio = closed && (closed.ratio ?? round(closed.result.throughput / run.bare_max_rps, 2));
    const max = closed ? `${count(closed.result.throughput)}/s, ${ratio} × bare` : '—';
    if (name.startsWith('async AML rules')) {
      const lag = JSON.parse(
        run.checks.find((check) => check.what.startsWith('async AML wait'))?.detail ?? '{}',
      ) as { maxSeconds?: number; p99Seconds?: number };
      lines.push([
        'async AML rules (acknowledged to evaluated)',
        where,
        '—',
        `max ${lag.maxSeconds} s (p99 ${lag.p99Seconds} s) at ${count(open?.rate ?? 0)} events/s`,
        verdict(phases.map((row) => row.verdict)),
      ]);
      continue;
    }
    lines.push([
      bare ? 'bare Fastify (the ceiling)' : pathName(name),
      where,
      max,
      open ? `${open.result.latency.p99} ms at ${count(open.rate ?? 0)}/s` : '—',
      bare ? 'the ceiling' : verdict(phases.map((row) => row.verdict)),
    ]);
  }
  for (const check of run.checks.filter((c) => c.what.startsWith('every acknowledged AML event stored'))) {
    const stored = /\((\w+)\)$/.exec(check.what)?.[1] ?? database;
    lines.push([
      'every acknowledged AML event stored',
      stored === database ? stored : `${stored}, after the ${database} phases`,
      '—',
      '—',
      check.ok ? 'met' : `not met: ${check.detail}`,
    ]);
  }
  const sanctions = run.sanctions?.results;
  if (sanctions) {
    const value = (measure: string) => round(sanctions.find((r) => r.measure === measure)?.value ?? NaN, 2);
    const failed = sanctions.filter((r) => !(r.value < r.target));
    lines.push([
      'sanctions matcher (one core)',
      `— (${database} run)`,
      `build ${value('index build')} s, index ${value('index memory')} MB`,
      `${value('screening p99')} ms (median ${value('screening median')} ms)`,
      failed.length === 0 ? 'met' : `not met: ${failed.map((r) => r.measure).join(', ')}`,
    ]);
  }
  return lines;
}

/** A Markdown table padded the way Prettier pads one, so that formatting the page leaves it as written. */
function table(header: string[], lines: string[][]): string {
  const widths = header.map((h, i) => Math.max(3, h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [format(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...lines.map(format)].join(
    '\n',
  );
}

function main() {
  const runs = newestRuns();
  if (runs.length === 0) throw new Error(`no full result file in ${RESULTS_DIR}`);
  const sources = runs
    .map(
      ({ database, file, run }) =>
        `\`bench/results/${file}\` (${database}; bare Fastify ${count(run.bare_max_rps)}/s)`,
    )
    .join(' and\n');
  const header = ['path', 'database', 'closed-loop max', 'open-loop p99 at the target rate', 'verdict'];
  const generated = [
    `Generated by \`npx tsx bench/standing.ts\` from\n${sources}.`,
    '',
    table(
      header,
      runs.flatMap(({ database, run }) => rowsOf(database, run)),
    ),
  ].join('\n');
  const page = fs.readFileSync(PAGE, 'utf8');
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${PAGE} has no ${START} … ${END} markers`);
  fs.writeFileSync(PAGE, `${page.slice(0, start + START.length)}\n\n${generated}\n\n${page.slice(end)}`);
  console.log(
    `${path.relative(process.cwd(), PAGE)}: the standing table from ${runs.map((r) => r.file).join(', ')}`,
  );
}

main();
