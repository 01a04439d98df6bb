/**
 * `npm run bench [-- --quick] [-- --only aml_event,geo_check]`: starts the service (PostgreSQL when
 * DATABASE_URL is set, else embedded PGlite), seeds it, drives each hot path from a separate load-generator
 * process at fixed arrival rates and closed-loop, compares with bare Fastify, and prints a table and a JSON file
 * under bench/results/. See docs/performance.md. The parts: run/options.ts (flags), run/targets.ts (the figures),
 * run/phases.ts (what is measured), run/report.ts (the table and the result file).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { log, only, timelineDir } from './run/options.js';
import { measureBare, measureDatabase } from './run/phases.js';
import { type Check, postgresServer, printTable, type Reported, writeResults } from './run/report.js';
import { measureSanctions } from './run/sanctions.js';
import { ROWS } from './run/targets.js';

async function main() {
  if (!fs.existsSync('dist/src/main.js'))
    throw new Error('Build first: npm run build (npm run bench does it)');
  // One key for every service process of the run (they inherit the environment) and for the seed's contact hashes.
  process.env.COMPLIANCE_SECRETS_KEY ??= randomBytes(32).toString('base64');
  if (timelineDir) fs.mkdirSync(timelineDir, { recursive: true });
  const primary: 'postgres' | 'pglite' = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  const reported: Reported[] = [];
  const checks: Check[] = [];

  const bareMax = await measureBare(reported);
  const rows = ROWS.filter((row) => !only || only.includes(row.scenario));
  for (const kind of [primary, ...(primary === 'postgres' ? (['pglite'] as const) : [])])
    await measureDatabase(kind, primary, rows, bareMax, reported, checks);
  const sanctions = await measureSanctions(checks);

  printTable(reported, checks);
  const file = writeResults(reported, checks, primary, bareMax, sanctions, await postgresServer());
  log(`\nresults: ${file}`);
  const failed = reported.some((r) => r.verdict.startsWith('FAIL')) || checks.some((c) => !c.ok);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
