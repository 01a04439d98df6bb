import type { SanctionsDateOfBirth, SanctionsEntity } from '../lists/entity.js';

/** How the subject's date of birth compares with the entity's: the strongest agreement found among its dates. */
export type DateOfBirthEvidence =
  'exact' | 'same_year' | 'in_range' | 'near' | 'conflict' | 'not_listed' | 'not_given';
export type NationalityEvidence = 'match' | 'conflict' | 'not_listed' | 'not_given';

/**
 * Score adjustments (added to the name score). Agreement raises, disagreement lowers; a listed date that only
 * states a year is weaker evidence than an exact day. A conflicting date can only lower the score.
 */
export const DATE_OF_BIRTH_ADJUSTMENT: Record<DateOfBirthEvidence, number> = {
  exact: 0.08,
  same_year: 0.03,
  in_range: 0.02,
  near: -0.04,
  conflict: -0.15,
  not_listed: 0,
  not_given: 0,
};
export const NATIONALITY_ADJUSTMENT: Record<NationalityEvidence, number> = {
  match: 0.03,
  conflict: -0.05,
  not_listed: 0,
  not_given: 0,
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const year = (date: string): number => Number(date.slice(0, 4));

function compareOne(subject: string, listed: SanctionsDateOfBirth): DateOfBirthEvidence {
  const subjectYear = year(subject);
  if (listed.kind === 'exact') {
    if (listed.from === subject) return 'exact';
    // Same year, other day: a data-entry slip as often as another person, so only a small deduction.
    return Math.abs(year(listed.from) - subjectYear) <= 1 ? 'near' : 'conflict';
  }
  if (subject >= listed.from && subject <= listed.to) {
    if (listed.kind === 'year') return 'same_year';
    // A wide "between" range says little; only a span of a few years corroborates.
    return year(listed.to) - year(listed.from) <= 3 ? 'in_range' : 'not_listed';
  }
  const distance =
    subjectYear < year(listed.from) ? year(listed.from) - subjectYear : subjectYear - year(listed.to);
  return distance <= 1 ? 'near' : 'conflict';
}

export function compareDateOfBirth(
  subject: string | undefined,
  entity: SanctionsEntity,
): DateOfBirthEvidence {
  if (subject === undefined || !DATE.test(subject)) return 'not_given';
  if (entity.dates_of_birth.length === 0) return 'not_listed';
  let best: DateOfBirthEvidence = 'conflict';
  for (const listed of entity.dates_of_birth) {
    const evidence = compareOne(subject, listed);
    if (DATE_OF_BIRTH_ADJUSTMENT[evidence] > DATE_OF_BIRTH_ADJUSTMENT[best]) best = evidence;
  }
  return best;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function countryMatches(code: string, listed: string): boolean {
  const text = listed.trim().toUpperCase();
  if (text === code) return true;
  if (text.length <= 3) return false;
  // Lists that give a country's name rather than its code ("Iraq", "Iraqi"): compare with the code's English name.
  const name = regionNames.of(code)?.toUpperCase();
  return name !== undefined && name !== code && text.includes(name.slice(0, Math.max(4, name.length - 1)));
}

export function compareNationality(
  subject: string | undefined,
  entity: SanctionsEntity,
): NationalityEvidence {
  const code = subject?.trim().toUpperCase();
  if (code === undefined || !/^[A-Z]{2}$/.test(code)) return 'not_given';
  const listed = [...entity.nationalities, ...entity.citizenships].filter((value) => value.trim() !== '');
  if (listed.length === 0) return 'not_listed';
  if (listed.some((value) => countryMatches(code, value))) return 'match';
  // Free text that names no recognisable country is no evidence either way.
  return listed.some((value) => /^[A-Z]{2}$/i.test(value.trim())) ? 'conflict' : 'not_listed';
}
