import { describe, expect, it } from 'vitest';
import { CANDIDATE_LIMIT } from './candidates.js';
import { buildSanctionsIndex } from './sanctions-index.js';
import { publication, type EntitySketch } from './entities.test-support.js';

const GIVEN = ['Anton', 'Boris', 'Dmitri', 'Gennadi', 'Igor', 'Kirill', 'Leonid', 'Mikhail', 'Oleg', 'Pavel'];
const FAMILY = [
  'Abramov',
  'Belov',
  'Chernov',
  'Demidov',
  'Frolov',
  'Gusev',
  'Ilyin',
  'Komarov',
  'Lazarev',
  'Markov',
];

/** `count` synthetic persons: made-up surnames (unique) with common given names, plus one target. */
function lists(count: number) {
  const sketches: EntitySketch[] = Array.from({ length: count }, (_, i) => ({
    id: `p${i}`,
    names: [
      `${GIVEN[i % GIVEN.length]} ${FAMILY[Math.floor(i / GIVEN.length) % FAMILY.length]}${i.toString(36)}ski`,
    ],
  }));
  sketches.push({ id: 'target', names: ['Zakhar Yevgenyevich PRILEPIN'] });
  return [publication('ofac_sdn', sketches)];
}

describe('candidate generation', () => {
  it('scores only names found through the index, never every name', () => {
    const index = buildSanctionsIndex(lists(20_000));
    const result = index.screen({ first_name: 'Zakhar', last_name: 'Prilepin' });
    expect(result.matches.map((m) => m.list_entity_id)).toEqual(['target']);
    expect(result.compared_names).toBeLessThanOrEqual(5);
    expect(index.stats.names).toBe(20_001);
  });

  it('keeps the number of names compared bounded as the lists grow', () => {
    const small = buildSanctionsIndex(lists(1_000)).screen({ first_name: 'Pavel', last_name: 'Markov' });
    const large = buildSanctionsIndex(lists(20_000)).screen({ first_name: 'Pavel', last_name: 'Markov' });
    // "Pavel" is on a tenth of all names: the large index still compares no more than the candidate limit.
    expect(small.compared_names).toBeLessThanOrEqual(CANDIDATE_LIMIT);
    expect(large.compared_names).toBeLessThanOrEqual(CANDIDATE_LIMIT);
    expect(large.compared_names).toBeLessThan(20_000 / 100);
  });
});
