import { beforeAll, expect, it } from 'vitest';
import { FULL_LISTS_DIR, describeFullLists } from '../lists/full-lists.test-support.js';
import { loadSanctionsDirectory } from '../lists/loader.js';
import { buildSanctionsIndex, type SanctionsIndex } from './sanctions-index.js';
import type { ScreeningQuery } from './types.js';

/** One listed person per full list, each screened under a perturbed name as a person would type it. */
const KNOWN: Array<{ list: string; id: string; query: ScreeningQuery; perturbation: string }> = [
  {
    list: 'ofac_sdn',
    id: '7211',
    perturbation: 'one typo, given name first',
    query: { first_name: 'Ivan', last_name: 'Apaolasa Sancho', date_of_birth: '1971-11-10' },
  },
  {
    list: 'ofac_consolidated',
    id: '9693',
    perturbation: 'transliteration variant',
    query: { first_name: 'Ibraheem', last_name: 'Abu Salem', date_of_birth: '1948-06-01' },
  },
  {
    list: 'un',
    id: 'IQi.022',
    perturbation: 'middle name dropped, transliteration variant',
    query: {
      first_name: 'Jamal Moustafa',
      last_name: 'Sultan al-Tikriti',
      date_of_birth: '1955-05-04',
      nationality: 'IQ',
    },
  },
  {
    list: 'uk',
    id: '14196',
    perturbation: 'typed in Cyrillic',
    query: { first_name: 'Владимир', last_name: 'Путин', date_of_birth: '1952-10-07', nationality: 'RU' },
  },
  {
    list: 'uk',
    id: '14196',
    perturbation: 'a second surname the list does not print',
    query: {
      first_name: 'Vladimir Vladimirovich',
      last_name: 'Putin Shelomov',
      date_of_birth: '1952-10-07',
      nationality: 'RU',
    },
  },
  {
    list: 'eu',
    id: '23',
    perturbation: 'middle name dropped, transliteration variant',
    query: { first_name: 'Udai', last_name: 'Hussein Al-Tikriti', date_of_birth: '1964-06-18' },
  },
];

// The matcher's quality means something only among the tens of thousands of names of the full lists.
describeFullLists('matching on the full lists', () => {
  let index: SanctionsIndex;
  beforeAll(async () => {
    const loaded = await loadSanctionsDirectory(FULL_LISTS_DIR);
    index = buildSanctionsIndex(loaded.publications);
  }, 120_000);

  it.each(KNOWN)('finds $list $id from a perturbed name ($perturbation)', ({ list, id, query }) => {
    const { matches, list_versions, compared_names } = index.screen(query);
    expect(matches.find((m) => m.list === list && m.list_entity_id === id)?.band).toBe('hit');
    expect(list_versions[list]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Candidates come from the index: a small share of the tens of thousands of names.
    expect(compared_names).toBeLessThan(index.stats.names / 100);
  });

  it('does not flag an ordinary name', () => {
    expect(
      index.screen({ first_name: 'Charlotte', last_name: 'Fletcher', date_of_birth: '1990-04-02' }).matches,
    ).toEqual([]);
  });
});
