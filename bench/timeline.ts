/**
 * `tsx bench/timeline.ts bench/profiles/timeline-<run>`: for each measured phase of a `npm run bench -- --timeline`
 * run, the ten 100 ms windows with the slowest requests over the phase's p99, each with the garbage collections
 * any service process ran from 200 ms before it to its end. Tells whether the latency tail is collections or
 * something else (a worker's batch, the database).
 */
import fs from 'node:fs';
import path from 'node:path';
import { summarise } from './lib/stats.js';

const WINDOW_MS = 100;
const WORST_WINDOWS = 10;
const LEAD_MS = 200;
/** Collections shorter than this cannot explain a tail of several milliseconds. */
const MIN_PAUSE_MS = 3;

interface Collection {
  at: number;
  pid: string;
  kind: string;
  pauseMs: number;
}

// e.g. "1795544806120 [14764:0x2252ad70]  26736 ms: Mark-Compact 122.4 (185.4) -> 43.8 (167.4) MB, 6.83 / 0.07 ms ..."
const GC_LINE = /^(\d+) \[(\d+):\S+\]\s+[\d.]+ ms: ([A-Za-z-]+(?: \(\w+\))?).*? MB, ([\d.]+) \//;

function readLog(dir: string): string[] {
  const file = path.join(dir, 'gc.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
}

/** Each service process's role, from its 'database ready' log line. */
function rolesOf(lines: string[]): Map<string, string> {
  const roles = new Map<string, string>();
  for (const line of lines) {
    const json = line.slice(line.indexOf(' ') + 1);
    if (!json.startsWith('{')) continue;
    const { pid, role } = JSON.parse(json) as { pid: number; role: string };
    roles.set(String(pid), `${role} ${pid}`);
  }
  return roles;
}

function collections(lines: string[]): Collection[] {
  return lines
    .flatMap((line) => {
      const m = GC_LINE.exec(line);
      return m ? [{ at: Number(m[1]), pid: m[2]!, kind: m[3]!, pauseMs: Number(m[4]) }] : [];
    })
    .filter((c) => c.pauseMs >= MIN_PAUSE_MS);
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: tsx bench/timeline.ts bench/profiles/timeline-<run>');
  process.exit(2);
}
const log = readLog(dir);
const gcs = collections(log);
const roles = rolesOf(log);
for (const name of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .sort((a, b) => parseInt(a) - parseInt(b))) {
  const requests = fs
    .readFileSync(path.join(dir, name), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' ').map(Number) as [number, number]);
  const { p99 } = summarise(requests.map(([, latency]) => latency));
  const start = requests[0]![0];
  const windows = new Map<number, { max: number; slow: number }>();
  for (const [at, latency] of requests) {
    if (latency <= p99) continue;
    const w = Math.floor((at - start) / WINDOW_MS);
    const window = windows.get(w) ?? { max: 0, slow: 0 };
    window.max = Math.max(window.max, latency);
    window.slow++;
    windows.set(w, window);
  }
  console.log(
    `\n${name}: ${requests.length} requests, p99 ${p99} ms; the windows with the slowest requests:`,
  );
  const worst = [...windows].sort(([, a], [, b]) => b.max - a.max).slice(0, WORST_WINDOWS);
  for (const [w, { max, slow }] of worst.sort(([a], [b]) => a - b)) {
    const from = start + w * WINDOW_MS;
    const near = gcs
      .filter((c) => c.at >= from - LEAD_MS && c.at <= from + WINDOW_MS)
      .map(
        (c) =>
          `${c.kind} ${c.pauseMs} ms (${roles.get(c.pid) ?? 'pid ' + c.pid}, ${Math.round(c.at - from)} ms)`,
      );
    console.log(
      `  +${((w * WINDOW_MS) / 1000).toFixed(1)} s  ${slow} over p99, max ${max.toFixed(1)} ms  ${near.join('; ') || '-'}`,
    );
  }
}
