import { describe, expect, it } from 'vitest';
import type { SanctionsEntity } from './entity.js';
import { compareVersions, entityDigest, publicationDigest } from './screening-content.js';

const entity = (overrides: Partial<SanctionsEntity> = {}): SanctionsEntity => ({
  list: 'un',
  list_entity_id: 'CDi.017',
  type: 'person',
  primary_name: 'STRATON MUSONI',
  names: [
    { name: 'STRATON MUSONI', quality: 'primary', non_latin: false },
    { name: 'IO Musoni', quality: 'strong', non_latin: false },
  ],
  dates_of_birth: [{ kind: 'exact', from: '1961-04-06', to: '1961-04-06' }],
  nationalities: ['RW'],
  citizenships: [],
  programmes: ['DRC'],
  ...overrides,
});

describe("an entity's screening content", () => {
  const base = entityDigest(entity());

  it.each([
    [
      'an alias added',
      {
        names: [...entity().names, { name: 'Ignace MUREKEZI', quality: 'strong' as const, non_latin: false }],
      },
    ],
    [
      'an alias weakened',
      { names: [entity().names[0]!, { name: 'IO Musoni', quality: 'weak' as const, non_latin: false }] },
    ],
    [
      'a transliteration added',
      { names: [...entity().names, { name: 'Стратон Мусони', quality: 'strong' as const, non_latin: true }] },
    ],
    [
      'a date of birth added',
      {
        dates_of_birth: [
          ...entity().dates_of_birth,
          { kind: 'year' as const, from: '1962-01-01', to: '1962-12-31' },
        ],
      },
    ],
    ['a nationality changed', { nationalities: ['CD'] }],
    ['a citizenship added', { citizenships: ['DE'] }],
  ])('changes with %s', (_, overrides) => {
    expect(entityDigest(entity(overrides))).not.toBe(base);
  });

  it.each([
    ['a programme added', { programmes: ['DRC', 'FDLR'] }],
    ['the aliases reordered', { names: [...entity().names].reverse() }],
    ['an address country added', { address_countries: ['RW'] }],
  ])('does not change with %s', (_, overrides) => {
    expect(entityDigest(entity(overrides))).toBe(base);
  });
});

describe('comparing two versions of a list', () => {
  it('names the entities added, changed and removed, each once and in id order', () => {
    const before = new Map([
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
    ]);
    const after = new Map([
      ['d', '4'],
      ['c', '3'],
      ['b', '9'],
    ]);
    expect(compareVersions(before, after)).toEqual({ added: ['d'], changed: ['b'], removed: ['a'] });
    expect(compareVersions(after, after)).toEqual({ added: [], changed: [], removed: [] });
  });

  it("gives a publication the same digest whatever the order of its entities, another when one entity's content changes", () => {
    const one = publicationDigest(
      new Map([
        ['a', '1'],
        ['b', '2'],
      ]),
    );
    expect(
      publicationDigest(
        new Map([
          ['b', '2'],
          ['a', '1'],
        ]),
      ),
    ).toBe(one);
    expect(
      publicationDigest(
        new Map([
          ['a', '1'],
          ['b', '3'],
        ]),
      ),
    ).not.toBe(one);
  });
});
