import { describe, expect, it } from 'vitest';
import { productionSanctionsMatcher, servedIndex } from './production-matcher.js';
import { buildSanctionsIndex } from './sanctions-index.js';
import { publication } from './entities.test-support.js';

const subject = { first_name: 'Ivan', last_name: 'Kuzmenko', date_of_birth: '1971-03-14', nationality: 'UA' };

describe('production sanctions matcher', () => {
  it('screens against whichever index is current, reporting its list versions and the evidence', async () => {
    let index = buildSanctionsIndex([publication('uk', [{ id: 'g1', names: ['Anna Petrova'] }])]);
    const matcher = productionSanctionsMatcher(() => servedIndex(index));
    expect(await matcher.screen(subject)).toEqual({
      matches: [],
      list_versions: { uk: { published_on: '2026-01-15', format: 'unknown', files: [] } },
    });

    index = buildSanctionsIndex([
      publication('uk', [{ id: 'g2', names: ['KUZMENKO, Ivan'], dob: ['1971-03-14'] }]),
    ]);
    const result = await matcher.screen(subject);
    expect(matcher.kind).toBe('production');
    expect(result.matches).toEqual([
      {
        list: 'uk',
        entity_id: 'g2',
        name: 'KUZMENKO, Ivan',
        score: 1,
        entity_type: 'person',
        primary_name: 'KUZMENKO, Ivan',
        programmes: expect.any(Array),
        matched_name_quality: 'primary',
        matched_name_non_latin: false,
        name_score: expect.any(Number),
        date_of_birth: 'exact',
        nationality: expect.any(String),
        weak_alias_capped: false,
        list_published_on: '2026-01-15',
      },
    ]);
  });

  it('applies the configured threshold', async () => {
    const index = buildSanctionsIndex([
      publication('un', [{ id: 'u1', names: ['Ivan Petrovich Kuzmenko'] }]),
    ]);
    const strict = productionSanctionsMatcher(() => servedIndex(index), { threshold: 0.99 });
    const lenient = productionSanctionsMatcher(() => servedIndex(index), { threshold: 0.8 });
    expect((await strict.screen(subject)).matches).toEqual([]);
    expect((await lenient.screen(subject)).matches.map((m) => m.entity_id)).toEqual(['u1']);
  });
});
