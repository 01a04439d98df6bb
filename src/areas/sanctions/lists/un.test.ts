import { beforeAll, describe, expect, it } from 'vitest';
import type { SanctionsListPublication } from './entity.js';
import { describeFullLists, fullList, fullListsManifestBlock } from './full-lists.test-support.js';
import { parseUnXml } from './un-xml.parser.js';
import { countBy, entity, excerpt, excerptManifestBlock, manifestCount } from './shipped-data.js';

const path = 'un/UN_consolidated.xml';

// The excerpts' MANIFEST.txt states its counts in the words of the shared one, so one check serves both.
function expectCounts(un: SanctionsListPublication, block: string) {
  expect(countBy(un, (e) => e.type === 'person')).toBe(manifestCount(block, /([\d,]+) individuals/));
  expect(countBy(un, (e) => e.type === 'entity')).toBe(manifestCount(block, /([\d,]+) entities/));
  expect(un.entities).toHaveLength(manifestCount(block, /= ([\d,]+)/));
}

/** Nationalities left as the list's text: those that resolved to no ISO code. */
const unresolvedCountries = (un: SanctionsListPublication) =>
  un.entities.flatMap((e) => e.nationalities).filter((c) => !/^[A-Z]{2}$/.test(c));

describe('UN Security Council consolidated.xml', () => {
  const un = parseUnXml(excerpt(path));

  it("reads every individual and entity of the excerpt, dated by the list's dateGenerated", () => {
    expect(un.list).toBe('un');
    expect(un.format).toBe('un_xml');
    expect(un.published_on).toBe('2026-02-27');
    expectCounts(un, excerptManifestBlock(path));
  });

  it('keeps the NAME_ORIGINAL_SCRIPT name, Low-quality aliases as weak, the exact DOB and nationality', () => {
    const saddam = entity(un, 'IQi.001');
    expect(saddam.primary_name).toBe('SADDAM HUSSEIN AL-TIKRITI');
    expect(saddam.names).toEqual([
      { name: 'SADDAM HUSSEIN AL-TIKRITI', quality: 'primary', non_latin: false },
      { name: 'صدام حسين التكريتي', quality: 'strong', non_latin: true },
      { name: 'Abu Ali', quality: 'weak', non_latin: false },
    ]);
    expect(saddam.dates_of_birth).toEqual([{ kind: 'exact', from: '1937-04-28', to: '1937-04-28' }]);
    expect(saddam.nationalities).toEqual(['IQ']);
    expect(saddam.programmes).toEqual(['Iraq']);
  });

  it('reads TYPE_OF_DATE BETWEEN as a range and APPROXIMATELY as an approximate range', () => {
    const ntaganda = entity(un, 'CDi.030');
    expect(ntaganda.dates_of_birth).toEqual([{ kind: 'range', from: '1973-01-01', to: '1974-12-31' }]);
    expect(ntaganda.nationalities).toEqual(['CD']); // "Democratic Republic of the Congo"
    expect(ntaganda.names).toContainEqual({ name: 'Bosco Ntaganda', quality: 'strong', non_latin: false });
    expect(ntaganda.names).toContainEqual({ name: 'Terminator', quality: 'weak', non_latin: false });

    const baluku = entity(un, 'CDi.036');
    expect(baluku.dates_of_birth).toEqual([
      { kind: 'range', from: '1976-01-01', to: '1978-12-31', approximate: true },
    ]);
    expect(baluku.nationalities).toEqual(['UG']);
  });

  it('reads ENTITY with its a.k.a. and f.k.a. aliases as usable names', () => {
    const adf = entity(un, 'CDe.001');
    expect(adf.type).toBe('entity');
    expect(adf.names.map((n) => [n.name, n.quality])).toEqual([
      ['ADF', 'primary'],
      ['Allied Democratic Forces', 'strong'],
      ['Forces Démocratiques Alliées-Armée Nationale de Libération de l’Ouganda', 'strong'],
      ['ADF/NALU', 'strong'],
      ['NALU', 'strong'],
    ]);
  });

  it('marks non-Latin-script names and resolves the UN country names to ISO codes', () => {
    expect(countBy(un, (e) => e.names.some((n) => n.non_latin))).toBe(
      manifestCount(excerptManifestBlock(path), /([\d,]+) entries have a name in a\s+non-Latin script/),
    );
    // Only a country that no longer exists stays as the list's text (QDi.290 is kept in the excerpt for it).
    expect(unresolvedCountries(un)).toEqual(['former Soviet Union']);
  });
});

describeFullLists('UN full list: every entry, as the shared MANIFEST.txt counts them', () => {
  let un: SanctionsListPublication;
  beforeAll(() => {
    un = parseUnXml(fullList(path));
  });

  it('reads every individual and entity of the full consolidated.xml', () => {
    expectCounts(un, fullListsManifestBlock(path));
  });

  it("marks the full list's non-Latin-script names and resolves every country name the list uses", () => {
    // The shared MANIFEST.txt does not count them; well over 300 of the entries have one.
    expect(countBy(un, (e) => e.names.some((n) => n.non_latin))).toBeGreaterThan(300);
    expect(unresolvedCountries(un)).toEqual(['former Soviet Union']);
  });
});
