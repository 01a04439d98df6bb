import type { SeededRandom } from './seeded-random.js';

/** One culture's name stock, as in scripts/eval-data/ordinary-names.json. */
export interface NameCulture {
  nationalities: string[];
  given: string[];
  surnames: string[];
}

export interface OrdinaryPerson {
  culture: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  nationality: string;
}

/**
 * Ordinary people: every culture contributes `perCulture` distinct given-name/surname pairs, drawn without
 * repetition, each with an adult's date of birth and a nationality usual for that culture.
 */
export function ordinaryPeople(
  cultures: Record<string, NameCulture>,
  perCulture: number,
  random: SeededRandom,
): OrdinaryPerson[] {
  const people: OrdinaryPerson[] = [];
  for (const [culture, stock] of Object.entries(cultures)) {
    const pairs = stock.given.flatMap((given) => stock.surnames.map((surname) => [given, surname] as const));
    for (const [first_name, last_name] of random.shuffle(pairs).slice(0, perCulture)) {
      people.push({
        culture,
        first_name,
        last_name,
        date_of_birth: random.day('1945-01-01', '2006-12-31'),
        nationality: random.pick(stock.nationalities),
      });
    }
  }
  return people;
}
