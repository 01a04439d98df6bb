import type {
  AliasQuality,
  SanctionsEntity,
  SanctionsEntityType,
  SanctionsListId,
  SanctionsListPublication,
} from '../lists/entity.js';
import { hasNonLatin } from './normalise.js';

export interface EntitySketch {
  id: string;
  names: Array<string | [string, AliasQuality]>;
  list?: SanctionsListId;
  type?: SanctionsEntityType;
  /** YYYY-MM-DD for an exact day, YYYY for a year only. */
  dob?: string[];
  nationalities?: string[];
}

/** A synthetic list entity for unit tests: the first name is the primary one, the others strong unless marked. */
export function entity(sketch: EntitySketch): SanctionsEntity {
  const names = sketch.names.map((name, i) => {
    const [text, quality] = typeof name === 'string' ? [name, i === 0 ? 'primary' : 'strong'] : name;
    return { name: text, quality: quality as AliasQuality, non_latin: hasNonLatin(text) };
  });
  return {
    list: sketch.list ?? 'un',
    list_entity_id: sketch.id,
    type: sketch.type ?? 'person',
    primary_name: names[0]?.name ?? '',
    names,
    dates_of_birth: (sketch.dob ?? []).map((date) =>
      date.length === 4
        ? { kind: 'year' as const, from: `${date}-01-01`, to: `${date}-12-31` }
        : { kind: 'exact' as const, from: date, to: date },
    ),
    nationalities: sketch.nationalities ?? [],
    citizenships: [],
    programmes: ['TEST'],
  };
}

export function publication(list: SanctionsListId, sketches: EntitySketch[]): SanctionsListPublication {
  return {
    list,
    format: 'test',
    published_on: '2026-01-15',
    files: [],
    entities: sketches.map((sketch) => entity({ list, ...sketch })),
  };
}
