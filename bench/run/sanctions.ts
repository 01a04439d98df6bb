/**
 * The production sanctions matcher over the full shipped lists (issue 6's figures), on one core when taskset is
 * there: index build time, index memory, and one screening's matching latency.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { log, only } from './options.js';
import type { Check } from './report.js';

export interface SanctionsBench {
  index: Record<string, number>;
  results: Array<{ measure: string; value: number; unit: string; target: number }>;
}

const SANCTIONS_LISTS_DIR =
  process.env.SANCTIONS_DATA_DIR ?? fileURLToPath(new URL('../../../shared/data/sanctions', import.meta.url));

/** The matcher's phase of the run, its figures added to `checks`; undefined when skipped or failed. */
export async function measureSanctions(checks: Check[]): Promise<SanctionsBench | undefined> {
  let sanctions: SanctionsBench | undefined;
  if ((!only || only.includes('sanctions')) && !fs.existsSync(SANCTIONS_LISTS_DIR)) {
    // A fresh clone: the matcher's figures are for the whole published lists, which live beside the repository.
    log(`== sanctions matcher: skipped, the full lists are not at ${SANCTIONS_LISTS_DIR}`);
  } else if (!only || only.includes('sanctions')) {
    log('== sanctions matcher over the shipped lists (one core)');
    sanctions = await sanctionsBench();
    for (const r of sanctions?.results ?? []) {
      checks.push({
        what: `sanctions ${r.measure} < ${r.target} ${r.unit}`,
        ok: r.value < r.target,
        detail: `${Math.round(r.value * 1000) / 1000} ${r.unit}`,
      });
    }
    if (!sanctions) checks.push({ what: 'sanctions matcher benchmark ran', ok: false, detail: 'see above' });
  }
  return sanctions;
}

async function sanctionsBench(): Promise<SanctionsBench | undefined> {
  const script = ['--expose-gc', '--import', 'tsx', 'scripts/bench-sanctions.ts', SANCTIONS_LISTS_DIR];
  const oneCore = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  const [command, commandArgs] = oneCore
    ? ['taskset', ['-c', '0', process.execPath, ...script]]
    : [process.execPath, script];
  const run = spawnSync(command, commandArgs as string[], { encoding: 'utf8' });
  const line = run.stdout.split('\n').find((l) => l.startsWith('SANCTIONS_BENCH '));
  if (!line) {
    log(`sanctions matcher benchmark failed:\n${run.stdout}${run.stderr}`);
    return undefined;
  }
  return JSON.parse(line.slice('SANCTIONS_BENCH '.length)) as SanctionsBench;
}
