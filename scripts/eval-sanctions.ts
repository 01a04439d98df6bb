/**
 * Sanctions matching evaluation: recall on perturbed names of listed persons and the false-positive rate on
 * ordinary names, over the lists in a directory. Deterministic: the same data gives the same numbers.
 *
 *   npx tsx scripts/eval-sanctions.ts [lists-dir] [--threshold=0.85] [--stride=1] [--examples=N]
 *
 * The directory defaults to SANCTIONS_DATA_DIR, then ../shared/data/sanctions. Exits 1 when a target is missed.
 */
import { fullListsDirOrSkip, ordinaryNameCultures, transliterationGroups } from './eval-inputs.js';
import { loadSanctionsDirectory } from '../src/areas/sanctions/lists/loader.js';
import {
  evaluate,
  type EvaluationReport,
  type Tally,
} from '../src/areas/sanctions/matching/eval/evaluate.js';
import { spellingTable } from '../src/areas/sanctions/matching/eval/variants.js';
import { buildSanctionsIndex } from '../src/areas/sanctions/matching/sanctions-index.js';
import { DEFAULT_HIT_THRESHOLD } from '../src/areas/sanctions/matching/types.js';

const RECALL_TARGET = 0.99;
const FALSE_POSITIVE_TARGET = 0.001;

const args = process.argv.slice(2);
const flag = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
const dir = fullListsDirOrSkip(args.find((arg) => !arg.startsWith('--')));
const threshold = Number(flag('threshold') ?? DEFAULT_HIT_THRESHOLD);
const stride = Number(flag('stride') ?? 1);
// How many missed and flagged names to print (15 and 25 unless given).
const examples = flag('examples') === undefined ? undefined : Number(flag('examples'));

const percent = (value: number) => `${(value * 100).toFixed(2)}%`;
const rate = (tally: Tally) => tally.found / Math.max(1, tally.queries);
const sum = (tallies: Record<string, Tally>) =>
  Object.values(tallies).reduce(
    (total, t) => ({ queries: total.queries + t.queries, found: total.found + t.found }),
    {
      queries: 0,
      found: 0,
    },
  );

function printHistogram(report: EvaluationReport): void {
  const { true_candidates, false_candidates } = report.histogram;
  const widest = Math.max(...true_candidates, ...false_candidates, 1);
  const bar = (count: number) => '#'.repeat(Math.ceil((count / widest) * 40));
  console.log(
    "\nScore distribution (true: the listed person's own entity; false: best match of an ordinary name)",
  );
  for (let i = 19; i >= 0; i--) {
    const label = `${(i / 20).toFixed(2)}–${((i + 1) / 20).toFixed(2)}`;
    const marker = i / 20 >= threshold ? ' hit' : i / 20 >= threshold - 0.1 ? ' bdl' : '    ';
    console.log(
      `${label}${marker} true ${String(true_candidates[i]).padStart(6)} ${bar(true_candidates[i] ?? 0).padEnd(40)} false ${String(false_candidates[i]).padStart(6)} ${bar(false_candidates[i] ?? 0)}`,
    );
  }
}

const loaded = await loadSanctionsDirectory(dir);
for (const failure of loaded.failures)
  console.error(`list file failed to parse: ${failure.file}: ${failure.error}`);
const started = performance.now();
const index = buildSanctionsIndex(loaded.publications);
console.log(`Lists in ${dir}:`);
for (const p of loaded.publications)
  console.log(`  ${p.list.padEnd(18)} ${p.published_on}  ${p.entities.length} entities  (${p.format})`);
console.log(
  `Index: ${JSON.stringify(index.stats)} built in ${Math.round(performance.now() - started)} ms; hit threshold ${threshold}`,
);

const stocks = ordinaryNameCultures();
const report = evaluate(index, loaded.publications, stocks, {
  threshold,
  person_stride: stride,
  sources: { spellings: spellingTable(transliterationGroups()) },
  ...(examples === undefined ? {} : { examples }),
});

console.log(
  '\nRecall (listed persons found at or above the threshold, with their listed date of birth and nationality)',
);
for (const [kind, tally] of Object.entries(report.recall)) {
  const nameOnly = report.recall_name_only[kind as keyof typeof report.recall];
  console.log(
    `  ${kind.padEnd(16)} ${percent(rate(tally)).padStart(7)} of ${tally.queries}   name only: ${percent(rate(nameOnly))}`,
  );
}
const recall = rate(sum(report.recall));
console.log(
  `  ${'all'.padEnd(16)} ${percent(recall).padStart(7)}   name only: ${percent(rate(sum(report.recall_name_only)))}`,
);
for (const example of report.missed_examples.slice(0, examples ?? 15)) console.log(`  missed: ${example}`);
const fpRate = report.ordinary.flagged / Math.max(1, report.ordinary.queries);
console.log(
  `\nOrdinary names: ${report.ordinary.queries} screened (${report.ordinary.removed_as_listed} removed as listed names), ${report.ordinary.flagged} flagged: false-positive rate ${percent(fpRate)}`,
);
for (const [culture, tally] of Object.entries(report.ordinary.by_culture)) {
  if (tally.found > 0) console.log(`  ${culture.padEnd(22)} ${tally.found} of ${tally.queries}`);
}
for (const example of report.flagged_examples) console.log(`  flagged: ${example}`);
console.log(`\nPrecision (flags naming the right entity, of all flags): ${percent(report.precision)}`);
printHistogram(report);

const missed = [
  ...Object.entries(report.recall)
    .filter(([, tally]) => rate(tally) < RECALL_TARGET)
    .map(([kind, tally]) => `recall for ${kind} ${percent(rate(tally))} < ${percent(RECALL_TARGET)}`),
  ...(fpRate > FALSE_POSITIVE_TARGET
    ? [`false-positive rate ${percent(fpRate)} > ${percent(FALSE_POSITIVE_TARGET)}`]
    : []),
];
if (report.ordinary.queries < 10_000)
  missed.push(`only ${report.ordinary.queries} ordinary names (< 10,000)`);
console.log(missed.length === 0 ? '\nAll targets met.' : `\nTargets missed:\n  ${missed.join('\n  ')}`);
process.exitCode = missed.length === 0 ? 0 : 1;
