import type {
  AliasQuality,
  SanctionsDateOfBirth,
  SanctionsEntity,
  SanctionsEntityType,
  SanctionsListId,
  SanctionsName,
} from './entity.js';

const RANK: Record<AliasQuality, number> = { primary: 3, strong: 2, weak: 1 };

/** A letter outside the Latin script (Cyrillic, Arabic, CJK, Greek, Hebrew…): the name needs transliteration. */
export function isNonLatin(name: string): boolean {
  return /(?!\p{Script=Latin})\p{L}/u.test(name);
}

/** Collapses whitespace and trims; "-0-" (OFAC) and blank fields are no value. */
export function clean(value: string | undefined | null): string {
  const text = (value ?? '').replace(/\s+/g, ' ').trim();
  return text === '-0-' ? '' : text;
}

/** Joins name parts that are present, in the order given. */
export function joinName(...parts: Array<string | undefined | null>): string {
  return parts.map(clean).filter(Boolean).join(' ');
}

/**
 * Accumulates one listed entity from the rows or elements that describe it. Names, dates and countries are
 * de-duplicated; a name given twice keeps its strongest quality (a primary name is never demoted to an alias).
 */
export class EntityBuilder {
  private primary = '';
  private readonly names = new Map<string, SanctionsName>();
  private readonly dobs = new Map<string, SanctionsDateOfBirth>();
  private readonly nationalities = new Set<string>();
  private readonly citizenships = new Set<string>();
  private readonly programmes = new Set<string>();
  private readonly addressCountries = new Set<string>();

  constructor(
    readonly list: SanctionsListId,
    readonly id: string,
    public type: SanctionsEntityType,
  ) {}

  addName(raw: string | undefined | null, quality: AliasQuality): this {
    const name = clean(raw);
    if (!name) return this;
    if (quality === 'primary' && !this.primary) this.primary = name;
    // A second "primary" (UK lists several) is a strong variation of the first.
    const effective: AliasQuality = quality === 'primary' && this.primary !== name ? 'strong' : quality;
    const key = name.normalize('NFKC').toLowerCase();
    const known = this.names.get(key);
    if (!known || RANK[effective] > RANK[known.quality]) {
      this.names.set(key, { name, quality: effective, non_latin: isNonLatin(name) });
    }
    return this;
  }

  addDateOfBirth(dob: SanctionsDateOfBirth | undefined): this {
    if (dob) this.dobs.set(`${dob.kind}|${dob.from}|${dob.to}`, dob);
    return this;
  }

  addNationalities(codes: Iterable<string>): this {
    for (const code of codes) if (code) this.nationalities.add(code);
    return this;
  }

  addCitizenships(codes: Iterable<string>): this {
    for (const code of codes) if (code) this.citizenships.add(code);
    return this;
  }

  addProgrammes(names: Iterable<string | undefined>): this {
    for (const name of names) {
      const programme = clean(name);
      if (programme) this.programmes.add(programme);
    }
    return this;
  }

  addAddressCountries(codes: Iterable<string>): this {
    for (const code of codes) if (code) this.addressCountries.add(code);
    return this;
  }

  get hasNames(): boolean {
    return this.names.size > 0;
  }

  build(): SanctionsEntity {
    const names = [...this.names.values()];
    // A list that flags no primary name (EU, some UK groups): its first good name stands as the primary one.
    const first = names.find((n) => n.quality === 'strong') ?? names[0];
    if (!this.primary && first) {
      this.primary = first.name;
      first.quality = 'primary';
    }
    return {
      list: this.list,
      list_entity_id: this.id,
      type: this.type,
      primary_name: this.primary,
      names,
      dates_of_birth: [...this.dobs.values()],
      nationalities: [...this.nationalities],
      citizenships: [...this.citizenships],
      programmes: [...this.programmes],
      ...(this.addressCountries.size ? { address_countries: [...this.addressCountries] } : {}),
    };
  }
}
