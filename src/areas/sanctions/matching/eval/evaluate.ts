import type { SanctionsEntity, SanctionsListPublication } from '../../lists/entity.js';
import { hasNonLatin, normaliseName } from '../normalise.js';
import type { SanctionsIndex } from '../sanctions-index.js';
import type { ScreeningQuery } from '../types.js';
import { ordinaryPeople, type NameCulture } from './ordinary-names.js';
import { SeededRandom } from './seeded-random.js';
import { nameVariant, VARIANT_KINDS, type VariantKind, type VariantSources } from './variants.js';

export interface Tally {
  queries: number;
  found: number;
}

export interface EvaluationReport {
  threshold: number;
  /** Listed persons found (their own entity at or above the threshold), per variant; with their listed DOB. */
  recall: Record<VariantKind, Tally>;
  /** The same queries with the name alone (no date of birth, no nationality): how much the name carries. */
  recall_name_only: Record<VariantKind, Tally>;
  ordinary: {
    queries: number;
    flagged: number;
    removed_as_listed: number;
    by_culture: Record<string, Tally>;
  };
  flagged_examples: string[];
  /** Listed persons not found (with their listed details), for tuning. */
  missed_examples: string[];
  /** Flags that named the right entity, over all flags. */
  precision: number;
  /** Counts per 0.05-wide score bucket (index 0: [0, 0.05) … index 19: [0.95, 1]). */
  histogram: { true_candidates: number[]; false_candidates: number[] };
}

export interface EvaluationOptions {
  threshold: number;
  seed?: number;
  per_culture?: number;
  /** Only every n-th listed person (1 = all): for quick runs. */
  person_stride?: number;
  /** Spelling table for transliteration variants; extra name parts default to the ordinary names' stock. */
  sources?: VariantSources;
  /** How many missed and flagged names the report lists (default 40 and 25). */
  examples?: number;
}

const bucket = (score: number) => Math.min(19, Math.floor(score * 20));
const tallies = (): Record<VariantKind, Tally> =>
  Object.fromEntries(VARIANT_KINDS.map((kind) => [kind, { queries: 0, found: 0 }])) as Record<
    VariantKind,
    Tally
  >;
const nameKey = (name: string) => [...normaliseName(name).tokens].sort().join(' ');

/** The list's Latin-script name a person would give: the primary name unless that is in another script. */
function latinName(entity: SanctionsEntity): string | undefined {
  if (!hasNonLatin(entity.primary_name)) return entity.primary_name;
  return entity.names.find((name) => !name.non_latin && !hasNonLatin(name.name))?.name;
}

/** What a listed person would type at signup: their date of birth as listed (a day within it) and nationality. */
function subjectDetails(
  entity: SanctionsEntity,
  random: SeededRandom,
): Pick<ScreeningQuery, 'date_of_birth' | 'nationality'> {
  const listed = entity.dates_of_birth[0];
  const nationality = [...entity.nationalities, ...entity.citizenships].find((value) =>
    /^[A-Z]{2}$/.test(value),
  );
  return {
    date_of_birth:
      listed === undefined ? random.day('1950-01-01', '2000-12-31') : random.day(listed.from, listed.to),
    ...(nationality === undefined ? {} : { nationality }),
  };
}

export function evaluate(
  index: SanctionsIndex,
  publications: SanctionsListPublication[],
  cultures: Record<string, NameCulture>,
  options: EvaluationOptions,
): EvaluationReport {
  const { threshold } = options;
  const random = new SeededRandom(options.seed ?? 20260601);
  const report: EvaluationReport = {
    threshold,
    recall: tallies(),
    recall_name_only: tallies(),
    ordinary: { queries: 0, flagged: 0, removed_as_listed: 0, by_culture: {} },
    flagged_examples: [],
    missed_examples: [],
    precision: 0,
    histogram: {
      true_candidates: new Array<number>(20).fill(0),
      false_candidates: new Array<number>(20).fill(0),
    },
  };
  let rightFlags = 0;
  let wrongFlags = 0;
  const persons = publications.flatMap((publication) =>
    publication.entities.filter((entity) => entity.type === 'person'),
  );
  const stride = options.person_stride ?? 1;
  const sources: VariantSources = {
    // One word each: "Min-seo" or "De Luca" would add two name parts.
    name_parts: Object.values(cultures)
      .flatMap((culture) => [...culture.given, ...culture.surnames])
      .filter((part) => /^\p{L}+$/u.test(part)),
    ...options.sources,
  };
  persons.forEach((entity, position) => {
    const name = position % stride === 0 ? latinName(entity) : undefined;
    const words = name?.split(/[\s,]+/).filter((word) => word !== '') ?? [];
    if (words.length === 0) return;
    const details = subjectDetails(entity, random);
    for (const kind of VARIANT_KINDS) {
      const variant = nameVariant(words, kind, random, sources);
      if (variant === undefined) continue;
      const subject = {
        first_name: variant.slice(0, -1).join(' '),
        last_name: variant[variant.length - 1] ?? '',
      };
      for (const [tally, query] of [
        [report.recall[kind], { ...subject, ...details }],
        [report.recall_name_only[kind], subject],
      ] as const) {
        const matches = index.screen(query, { threshold, min_score: 0, limit: 200 }).matches;
        const own = matches.find((m) => m.list === entity.list && m.list_entity_id === entity.list_entity_id);
        tally.queries++;
        if (own !== undefined && own.score >= threshold) tally.found++;
        if (tally !== report.recall[kind]) continue;
        report.histogram.true_candidates[bucket(own?.score ?? 0)]!++;
        if (own !== undefined && own.score >= threshold) rightFlags++;
        else if ((matches[0]?.score ?? 0) >= threshold) wrongFlags++;
        if ((own?.score ?? 0) < threshold && report.missed_examples.length < (options.examples ?? 40)) {
          report.missed_examples.push(
            `${kind}: "${variant.join(' ')}" for ${name} (${entity.list} ${entity.list_entity_id}) ${own?.score ?? 'not found'} ${own ? JSON.stringify(own.evidence) : ''}`,
          );
        }
      }
    }
  });

  const listed = new Set(persons.flatMap((entity) => entity.names.map((name) => nameKey(name.name))));
  // A generator of their own: the ordinary names stay the same when the variant kinds or the lists change.
  const ordinaryRandom = new SeededRandom((options.seed ?? 20260601) + 1);
  for (const person of ordinaryPeople(cultures, options.per_culture ?? 650, ordinaryRandom)) {
    if (listed.has(nameKey(`${person.first_name} ${person.last_name}`))) {
      report.ordinary.removed_as_listed++;
      continue;
    }
    const top = index.screen(person, { threshold, min_score: 0, limit: 1 }).matches[0];
    const culture = (report.ordinary.by_culture[person.culture] ??= { queries: 0, found: 0 });
    report.ordinary.queries++;
    culture.queries++;
    report.histogram.false_candidates[bucket(top?.score ?? 0)]!++;
    if (top === undefined || top.score < threshold) continue;
    report.ordinary.flagged++;
    culture.found++;
    wrongFlags++;
    if (report.flagged_examples.length < (options.examples ?? 25)) {
      report.flagged_examples.push(
        `${person.first_name} ${person.last_name} → ${top.matched_name} (${top.list} ${top.list_entity_id}) ${top.score}`,
      );
    }
  }
  report.precision = rightFlags / Math.max(1, rightFlags + wrongFlags);
  return report;
}
