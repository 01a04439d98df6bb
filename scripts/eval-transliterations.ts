/**
 * Writes scripts/eval-data/transliterations.json, the spelling table behind the evaluation's transliteration
 * variants: the Cyrillic name words that recur on the lists, each spelt under the romanisation systems people's
 * documents use (passports since 1997, BGN/PCGN, GOST, Wikipedia, bank cards, informal typing), from iuliia.
 * iuliia is not a dependency of the project; install it beside the clone for one run:
 *
 *   npm install --no-save iuliia@0.8.2 && npx tsx scripts/eval-transliterations.ts [lists-dir]
 *
 * The output is the same on every run with the same lists and iuliia version.
 */
import { writeFileSync } from 'node:fs';
import { fullListsDirOrSkip } from './eval-inputs.js';
import { loadSanctionsDirectory } from '../src/areas/sanctions/lists/loader.js';
import { normaliseName } from '../src/areas/sanctions/matching/normalise.js';

const IULIIA_VERSION = '0.8.2';
// Systems whose output is a name as a person or an official would type it (ISO 9 gives diacritics that
// normalisation folds, so it adds spellings such as "Julija" and "Hruscev"). Left out: the linguists' systems
// (Scientific, GOST 7034, GOST 779 alt), whose x for х ("Xan" for Khan) nobody writes their name with.
const SCHEMAS = [
  'ala_lc_alt',
  'bgn_pcgn',
  'bs_2979_alt',
  'gost_52290',
  'gost_52535',
  'icao_doc_9303',
  'iso_9_1954',
  'mosmetro',
  'mvd_310',
  'mvd_310_fr',
  'mvd_782',
  'telegram',
  'wikipedia',
  'yandex_maps',
  'yandex_money',
];
// A word recurring on the lists' Cyrillic names: given names, patronymics and common surnames, not one-offs.
const MIN_OCCURRENCES = 2;

interface Iuliia {
  translate(source: string, schema: unknown): string;
  Schemas: { get(name: string): unknown };
}

const iuliia = (await import(process.env.IULIIA_MODULE ?? 'iuliia')) as Iuliia & { default?: Iuliia };
const { translate, Schemas } = iuliia.default ?? iuliia;
const loaded = await loadSanctionsDirectory(fullListsDirOrSkip(process.argv[2]));

const occurrences = new Map<string, number>();
for (const publication of loaded.publications) {
  for (const entity of publication.entities) {
    if (entity.type !== 'person') continue;
    for (const name of entity.names) {
      for (const word of name.name.toLowerCase().split(/[^\p{L}]+/u)) {
        if (word.length >= 3 && /^\p{Script=Cyrillic}+$/u.test(word))
          occurrences.set(word, (occurrences.get(word) ?? 0) + 1);
      }
    }
  }
}

const groups: string[][] = [];
const words = [...occurrences]
  .filter(([, count]) => count >= MIN_OCCURRENCES)
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
for (const [word] of words) {
  const spellings = new Set<string>();
  for (const schema of SCHEMAS) {
    const latin = translate(word, Schemas.get(schema));
    // Letters a Russian system does not know (Ukrainian і, ї, є) stay Cyrillic: that word is left out.
    if (/\p{Script=Cyrillic}/u.test(latin)) continue;
    const { tokens } = normaliseName(latin);
    if (tokens.length === 1 && tokens[0] !== undefined) spellings.add(tokens[0]);
  }
  if (spellings.size >= 2) groups.push([...spellings].sort());
}

const table = {
  _about:
    'Spellings of one Cyrillic name word under different romanisation systems, for the transliteration variants of scripts/eval-sanctions.ts. Made by scripts/eval-transliterations.ts; see MANIFEST.txt for sources and licences.',
  _source: `iuliia ${IULIIA_VERSION} (MIT), schemas: ${SCHEMAS.join(', ')}; words: Cyrillic name words occurring at least ${MIN_OCCURRENCES} times in the persons' names of the lists in ${loaded.publications.map((p) => `${p.list} ${p.published_on}`).join(', ')}`,
  groups,
};
const out = new URL('./eval-data/transliterations.json', import.meta.url);
// One group a line, as the formatter lays it out.
const lines = table.groups.map(
  (group) => `    [${group.map((spelling) => JSON.stringify(spelling)).join(', ')}]`,
);
writeFileSync(
  out,
  `{\n  "_about": ${JSON.stringify(table._about)},\n  "_source": ${JSON.stringify(table._source)},\n  "groups": [\n${lines.join(',\n')}\n  ]\n}\n`,
);
console.log(`${groups.length} words written to ${out.pathname}`);
