import { describe, expect, it } from 'vitest';
import { productionSanctionsMatcher } from './production-matcher.js';
import { buildSanctionsIndex } from './sanctions-index.js';
import { publication } from './test-entities.js';

const subject = { first_name: 'Ivan', last_name: 'Kuzmenko', date_of_birth: '1971-03-14', nationality: 'UA' };

describe('production sanctions matcher', () => {
  it('screens against whichever index is current, reporting its list versions', async () => {
    let index = buildSanctionsIndex([publication('uk', [{ id: 'g1', names: ['Anna Petrova'] }])]);
    const matcher = productionSanctionsMatcher(() => index);
    expect(await matcher.screen(subject)).toEqual({ matches: [], list_versions: { uk: '2026-01-15' } });

    index = buildSanctionsIndex([
      publication('uk', [{ id: 'g2', names: ['KUZMENKO, Ivan'], dob: ['1971-03-14'] }]),
    ]);
    const result = await matcher.screen(subject);
    expect(matcher.kind).toBe('production');
    expect(result.matches).toEqual([{ list: 'uk', entity_id: 'g2', name: 'KUZMENKO, Ivan', score: 1 }]);
  });

  it('applies the configured threshold', async () => {
    const index = buildSanctionsIndex([
      publication('un', [{ id: 'u1', names: ['Ivan Petrovich Kuzmenko'] }]),
    ]);
    const strict = productionSanctionsMatcher(() => index, { threshold: 0.99 });
    const lenient = productionSanctionsMatcher(() => index, { threshold: 0.8 });
    expect((await strict.screen(subject)).matches).toEqual([]);
    expect((await lenient.screen(subject)).matches.map((m) => m.entity_id)).toEqual(['u1']);
  });
});
