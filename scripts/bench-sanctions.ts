/**
 * Sanctions matcher benchmark: index build time, memory the index retains, and per-screening latency
 * (median, p99) over a few thousand queries: perturbed listed names and ordinary names, half and half.
 *
 *   node --expose-gc --import tsx scripts/bench-sanctions.ts [lists-dir]     (run under `taskset -c 0` for one core)
 *
 * Targets: build < 15 s, index memory < 400 MB, median < 1 ms, p99 < 5 ms. Exits 1 when one is missed.
 */
import { fullListsDirOrSkip, ordinaryNameCultures } from './eval-inputs.js';
import { loadSanctionsDirectory } from '../src/areas/sanctions/lists/loader.js';
import { ordinaryPeople } from '../src/areas/sanctions/matching/eval/ordinary-names.js';
import { SeededRandom } from '../src/areas/sanctions/matching/eval/seeded-random.js';
import { nameVariant, VARIANT_KINDS } from '../src/areas/sanctions/matching/eval/variants.js';
import { buildSanctionsIndex } from '../src/areas/sanctions/matching/sanctions-index.js';
import type { ScreeningQuery } from '../src/areas/sanctions/matching/types.js';

const QUERIES = 4000;
const dir = fullListsDirOrSkip(process.argv[2]);
const gc = (globalThis as { gc?: () => void }).gc;
/** Memory the process's objects hold after a full collection (heap and typed-array buffers). */
const retainedMb = () => {
  gc?.();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 2 ** 20;
};
const residentMb = () => process.memoryUsage().rss / 2 ** 20;

const loaded = await loadSanctionsDirectory(dir);
const retainedBefore = retainedMb();
const started = performance.now();
const index = buildSanctionsIndex(loaded.publications);
const buildMs = performance.now() - started;
// The index is still referenced below: what the collection keeps beyond the loaded lists is the index.
const indexMb = retainedMb() - retainedBefore;

const random = new SeededRandom(7);
const persons = loaded.publications.flatMap((p) => p.entities.filter((e) => e.type === 'person'));
const queries: ScreeningQuery[] = [];
while (queries.length < QUERIES / 2) {
  const words = random
    .pick(persons)
    .primary_name.split(/[\s,]+/)
    .filter(Boolean);
  const variant = nameVariant(words, random.pick(VARIANT_KINDS), random) ?? words;
  queries.push({
    first_name: variant.slice(0, -1).join(' '),
    last_name: variant.at(-1) ?? '',
    date_of_birth: '1970-05-05',
  });
}
const cultures = ordinaryNameCultures();
queries.push(...random.shuffle(ordinaryPeople(cultures, 200, random)).slice(0, QUERIES / 2));

for (const query of queries.slice(0, 500)) index.screen(query); // warm-up: let the JIT settle
const timings = queries.map((query) => {
  const start = process.hrtime.bigint();
  index.screen(query);
  return Number(process.hrtime.bigint() - start) / 1e6;
});
timings.sort((a, b) => a - b);
const quantile = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))] ?? 0;

const results = [
  { measure: 'index build', value: buildMs / 1000, unit: 's', target: 15 },
  { measure: 'index memory', value: indexMb, unit: 'MB', target: 400 },
  { measure: 'screening median', value: quantile(0.5), unit: 'ms', target: 1 },
  { measure: 'screening p99', value: quantile(0.99), unit: 'ms', target: 5 },
];
console.log(
  `Index: ${JSON.stringify(index.stats)} from ${loaded.publications.map((p) => `${p.list} ${p.published_on}`).join(', ')}`,
);
console.log(
  `Resident memory after build: ${residentMb().toFixed(0)} MB (process), ${gc ? '' : 'run with --expose-gc for exact figures, '}${queries.length} queries`,
);
for (const r of results) {
  console.log(
    `${r.measure.padEnd(24)} ${r.value.toFixed(3).padStart(9)} ${r.unit.padEnd(3)} target < ${r.target} ${r.unit} ${r.value < r.target ? 'ok' : 'MISSED'}`,
  );
}
// One machine-readable line for `npm run bench`, which runs this script as one of its phases.
console.log(`SANCTIONS_BENCH ${JSON.stringify({ index: index.stats, results })}`);
process.exitCode = results.every((r) => r.value < r.target) ? 0 : 1;
